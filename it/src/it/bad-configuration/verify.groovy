def log = new File(basedir, 'build.log').text
def runs = log.split('Scanning for projects').drop(1)
assert runs.size() == 4 : runs.size()
runs.each { run ->
    assert run.contains('BUILD FAILURE')
    assert !run.contains('NullPointerException')
}
assert runs[0].contains('bad_parameter: <command> has an empty argument (argument 2 of 2); remove it, or give it a value')
assert runs[1].contains('bad_parameter: <environment> gives variable LUA_PATH no value; give it one, as in <environment><LUA_PATH>value</LUA_PATH></environment>, or remove it')
assert runs[2].contains('malformed_envelope: ' + new File(basedir, 'src/test/patchgrade/envelope.json').path
        + ': key "max_wal_ms" is not a ceiling patchgrade knows, so the limit it was meant to set would never apply; use one of [')
assert runs[2].contains('max_wall_ms]') && runs[2].contains('(fix the spelling, or remove the key)')
// The setup error still leaves a report for Jenkins.
assert new File(basedir, 'target/patchgrade-reports/TEST-patchgrade.envelope.typo.xml').text.contains('type="malformed_envelope"')
assert runs[3].contains('malformed_cases: ' + new File(basedir, 'src/test/patchgrade/typo.jsonl').path
        + ':2: unknown key "timeout" (did you mean "timeout_s"?)')
// Each error is said once: Maven appends a cause's message its own does not contain, and the cause names settings plainly.
[[runs[0], 'has an empty argument (argument 2 of 2)'], [runs[1], 'gives variable LUA_PATH no value'], [runs[2], 'is not a ceiling patchgrade knows'],
 [runs[3], 'unknown key "timeout"']].each { run, sentence ->
    def errorLines = run.readLines().findAll { it.startsWith('[ERROR] Failed to execute goal') }
    assert errorLines.size() == 1 : errorLines
    assert errorLines[0].count(sentence) == 1 : errorLines[0]
}
true
