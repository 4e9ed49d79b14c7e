import groovy.json.JsonSlurper
import groovy.xml.XmlSlurper

def reports = new File(basedir, 'target/patchgrade-reports')
def xml = new XmlSlurper().parse(new File(reports, 'TEST-patchgrade.digest.drifted.xml'))
assert xml.@errors == '1'
assert xml.testcase.error.@type == 'case_set_drift'
assert xml.testcase.error.@message.text().contains('added [7.25], removed []')
def json = new JsonSlurper().parse(new File(reports, 'patchgrade.digest.drifted.json'))
assert json.verdict == 'error' && json.error.type == 'case_set_drift'
assert !json.cases : 'no partial verdict pretends to be complete'
def log = new File(basedir, 'build.log').text
assert log.contains('case_set_drift: the cases in')
assert log.contains('BUILD FAILURE')
