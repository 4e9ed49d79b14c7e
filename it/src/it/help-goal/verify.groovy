def log = new File(basedir, 'build.log').text
['envelope', 'record-envelope', 'digest', 'record-digest', 'three-column', 'freeze-reference', 'patch-coverage', 'help'].each { goal ->
    assert log.contains("patchgrade:${goal}") : "help lists ${goal}"
}
// -Ddetail shows each parameter with its description, default and user property.
assert log.contains('testFailureIgnore (Default: false)')
assert log.contains('User property: patchgrade.testFailureIgnore')
assert log.contains('Run only shard K of N')
assert log.contains('User property: patchgrade.shard')
assert log.contains('rssSlackPercent (Default: 30)')
assert log.contains('timeBuckets (Default: 50,500,5000)')
assert log.contains('BUILD SUCCESS')
