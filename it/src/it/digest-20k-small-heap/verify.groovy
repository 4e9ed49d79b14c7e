// Every case is in the JUnit report and the JSON report, nothing failed, and passing cases left no files.
def reports = new File(basedir, 'target/patchgrade-reports')
def xml = new File(reports, 'TEST-patchgrade.digest.grade.xml')
assert xml.isFile() : "no JUnit report in ${reports}: ${reports.list()}"
def suite = new groovy.xml.XmlSlurper().parse(xml)
assert suite.@tests.toString() == '20000'
assert suite.@failures.toString() == '0' && suite.@errors.toString() == '0'
assert suite.testcase.size() == 20000
def json = new groovy.json.JsonSlurper().parse(new File(reports, 'patchgrade.digest.grade.json'))
assert json.verdict == 'pass'
assert json.cases.size() == 20000
assert json.cases.every { it.kept_files.isEmpty() }
def streams = new File(basedir, 'target/patchgrade/streams/digest/grade')
assert !streams.exists() || streams.list().length == 0 : "passing cases kept streams: ${streams.list().take(5)}"
def cand = new File(basedir, 'target/patchgrade/cand/grade')
assert !cand.exists() || cand.list().length == 0
def log = new File(basedir, 'build.log').text
assert !log.contains('OutOfMemoryError')
return true
