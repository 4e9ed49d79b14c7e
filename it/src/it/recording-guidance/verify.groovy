import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
// Recorded only because of force, and said so, naming the cases and how their stderr ends.
assert log.contains('3 of 3 case(s) did not run cleanly on the known-good command')
assert log.contains("Failed to create 'alpha' actual file")
assert log.contains('They were recorded because')
assert new File(basedir, 'target/broken-gold').listFiles().size() >= 3

// Goldens kept as files grade as the inline one does.
def graded = new JsonSlurper().parse(new File(basedir, 'target/patchgrade-reports/patchgrade.three-column.golden-files.json'))
assert graded.error == null
assert graded.rows.size() == 3
assert graded.worst == 'pass_all_agree'
assert log.contains('BUILD SUCCESS')
return true
