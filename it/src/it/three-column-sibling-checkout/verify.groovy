import groovy.json.JsonSlurper

def report = { id -> new JsonSlurper().parse(new File(basedir, "target/patchgrade-reports/patchgrade.three-column.${id}.json")) }

// Without the sandbox the candidate copies every golden from the checkout beside it: graded as agreeing with all.
def open = report('farm-unsandboxed')
assert open.error == null
assert open.sandbox.tamper_proof == false
assert open.worst == 'pass_all_agree'

// In the sandbox the checkout beside the build is hidden: the candidate finds no golden and regresses.
def sandboxed = report('farm')
assert sandboxed.error == null
assert sandboxed.sandbox.mode == 'namespaces'
assert sandboxed.rows.size() == 6
assert sandboxed.worst == 'candidate_regression'
assert new File(basedir, '../sibling-gen-1/src/test/patchgrade/cases.jsonl').text.contains('"golden":"2"')
