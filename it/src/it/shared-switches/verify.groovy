def log = new File(basedir, 'build.log').text
def runs = log.split(/(?m)^\[INFO\] Scanning for projects/).findAll { it.contains('BUILD') }
assert runs.size() == 5 : runs.size()

['skipTests', 'maven.test.skip', 'skipITs'].eachWithIndex { name, i ->
    assert runs[i].contains("patchgrade: envelope skipped (${name}=true; grading goals honour it as Failsafe does)") : name
    assert runs[i].contains("patchgrade: check skipped (${name}=true") : name
    assert !runs[i].contains('Tests run:') : "${name}: nothing graded"
    assert runs[i].contains('BUILD SUCCESS') : name
}
// maven.test.failure.ignore, which Jenkins' Maven jobs set, acts as testFailureIgnore for grading and check alike.
assert runs[3].contains('Tests run: 1, Failures: 1, Errors: 0, Skipped: 0')
assert runs[3].contains('maven.test.failure.ignore=true: the build goes on despite these failures')
assert runs[3].contains('patchgrade check: 1 of 1 grading execution(s) of shared-switches failed')
assert runs[3].contains('BUILD SUCCESS')
assert runs[4].contains('BUILD FAILURE') && runs[4].contains('worst: rss')
