import groovy.json.JsonSlurper

def report = { id -> new JsonSlurper().parse(new File(basedir, "target/patchgrade-reports/patchgrade.three-column.${id}.json")) }
try {
    // The control: without the sandbox the copy in /var/tmp hands the candidate every golden.
    def open = report('var-tmp-unsandboxed')
    assert open.error == null
    assert open.sandbox.tamper_proof == false
    assert open.worst == 'pass_all_agree'

    // In the sandbox no copy is in the view, wherever it lies, and the oracle itself is hidden.
    ['the-oracle', 'var-tmp', 'srv', 'opt', 'beside'].each { id ->
        def graded = report(id)
        assert graded.error == null : "${id}: ${graded.error}"
        assert graded.sandbox.mode == 'namespaces'
        assert graded.rows.size() == 6
        assert graded.worst == 'candidate_regression' : "${id} found a golden"
    }

    // An input kept beside the oracles and named by the candidate's command is in its view.
    def named = report('named-input')
    assert named.error == null
    assert named.worst == 'pass_all_agree'

    // A workload in src/test/patchgrade, named by the command, records an envelope with the defaults.
    def envelope = new JsonSlurper().parse(new File(basedir, 'target/workload-envelope.json'))
    assert envelope.max_rss_kb > 0

    def log = new File(basedir, 'build.log').text
    assert !log.contains('holds the candidate')
} finally {
    ['/var/tmp/patchgrade-it-allow-list', '/srv/patchgrade-it-allow-list', '/opt/patchgrade-it-allow-list',
     new File(basedir, '../allow-list-beside').canonicalPath].each { new File(it).deleteDir() }
}
return true
