import groovy.json.JsonSlurper

def report = { id -> new JsonSlurper().parse(new File(basedir, "target/patchgrade-reports/patchgrade.three-column.${id}.json")) }

// In the sandbox: the append was refused, the oracle guard saw an unchanged file, the rows were graded.
def sandboxed = report('tamper')
assert sandboxed.error == null
assert sandboxed.sandbox.mode == 'namespaces'
assert sandboxed.sandbox.tamper_proof == true
assert sandboxed.rows.size() == 6
assert sandboxed.worst == 'candidate_regression'
def xml = new File(basedir, 'target/patchgrade-reports/TEST-patchgrade.three-column.tamper.xml').text
assert xml.contains('<property name="patchgrade.sandbox" value="namespaces')

// Without it: the append landed and the grade is an error, marked as not tamper-proof.
def open = report('tamper-unsandboxed')
assert open.error.type == 'oracle_tampered'
assert open.error.message.contains('cases.jsonl')
assert open.sandbox.mode == 'off'
assert open.sandbox.reason == 'sandbox=off was set'
assert open.sandbox.tamper_proof == false
def log = new File(basedir, 'build.log').text
assert log.contains('oracle_tampered: oracle file changed while the goal ran')
assert log.contains('BUILD FAILURE')
