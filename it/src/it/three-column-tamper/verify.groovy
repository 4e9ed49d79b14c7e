import groovy.json.JsonSlurper

def json = new JsonSlurper().parse(new File(basedir, 'target/patchgrade-reports/patchgrade.three-column.tamper.json'))
assert json.error.type == 'oracle_tampered'
assert json.error.message.contains('cases.jsonl')
def log = new File(basedir, 'build.log').text
assert log.contains('oracle_tampered: oracle file changed while the goal ran')
assert log.contains('BUILD FAILURE')
