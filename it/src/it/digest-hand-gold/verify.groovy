import groovy.json.JsonSlurper

def gold = new File(basedir, 'src/test/patchgrade/gold')
def expected = new File(basedir, 'expected-gold')
assert gold.list().sort() == expected.list().sort()
expected.eachFile { assert new File(gold, it.name).bytes == it.bytes : "${it.name} left byte-identical by the refused recording" }

def report = new JsonSlurper().parse(new File(basedir, 'target/patchgrade-reports/patchgrade.digest.hand-gold.json'))
assert report.verdict == 'pass'
assert report.cases.size() == 6

def log = new File(basedir, 'build.log').text
assert log.contains('records no toolchain')
// A hand-written gold names no time basis: its times are wall times, graded as such, and the log says so once.
assert (log =~ /names no time_basis, so its times are wall times/).count == 1
assert log.contains('refused_overwrite') && log.contains('-Dpatchgrade.force=true')
assert log.contains('BUILD SUCCESS')
