import groovy.json.JsonSlurper
import groovy.xml.XmlSlurper

def reports = new File(basedir, 'target/patchgrade-reports')
def json = new JsonSlurper().parse(new File(reports, 'patchgrade.three-column.swapped.json'))
assert json.worst == 'reference_identity_drift'
assert json.error.type == 'reference_identity_drift'
assert json.error.message.contains('0000000000000000000000000000000000000000000000000000000000000000')
assert json.error.message =~ /\(sha256 [0-9a-f]{64}, frozen as 0{64}\) has changed/
assert !json.rows
assert !new File(basedir, 'target/patchgrade/streams').exists() : 'no row ran'
def xml = new XmlSlurper().parse(new File(reports, 'TEST-patchgrade.three-column.swapped.xml'))
assert xml.testcase.error.@type == 'reference_identity_drift'
def log = new File(basedir, 'build.log').text
assert log.contains('mvn compile patchgrade:freeze-reference@swapped -Dpatchgrade.force=true')
assert log.contains('BUILD FAILURE')
