import groovy.json.JsonSlurper
import groovy.xml.XmlSlurper

def reports = new File(basedir, 'target/patchgrade-reports')
def json = { id -> new JsonSlurper().parse(new File(reports, "patchgrade.three-column.${id}.json")) }
def patterns = { id -> json(id).rows.collectEntries { [(it.id): it.pattern] } }

def sidecar = new File(basedir, 'src/test/patchgrade/reference.sha256').text
assert sidecar ==~ /[0-9a-f]{64}  target\/bin\/tenths_ref\n/

assert patterns('trunc') == ['tenths-0': 'pass_all_agree', 'tenths-4': 'pass_all_agree', 'tenths-5': 'candidate_regression',
        'tenths-15': 'candidate_regression', 'tenths-neg-5': 'candidate_regression', 'tenths-neg-15': 'candidate_regression']
assert json('trunc').worst == 'candidate_regression'
assert json('trunc').counts == [candidate_regression: 4, pass_all_agree: 2]

def halfUp = patterns('half-up')
assert halfUp.findAll { it.value != 'pass_all_agree' }.keySet() == ['tenths-neg-5', 'tenths-neg-15'] as Set

assert patterns('correct').values().every { it == 'pass_all_agree' }
assert json('correct').verdict == 'pass'
assert new File(reports, 'patchgrade.three-column.correct.feedback.jsonl').text == ''

def coupled = patterns('coupled')
assert coupled['tenths-15'] == 'coupled_or_stale_golden'
assert json('coupled').worst == 'coupled_or_stale_golden'

def rot = patterns('rot-split')
assert rot == ['rot-0': 'golden_rot', 'split-25': 'three_way_split', 'bad-input': 'nonzero_exit', 'agree-4': 'pass_all_agree']
assert json('rot-split').worst == 'three_way_split'
def badInput = json('rot-split').rows.find { it.id == 'bad-input' }
assert badInput.reference.exit == 2 && badInput.candidate.exit == 2 : 'both return codes are kept'

assert json('float-exact').rows*.pattern == ['candidate_regression', 'candidate_regression']
assert json('float-ulp').rows*.pattern == ['pass_all_agree', 'pass_all_agree']
assert json('float-ulp').comparison == 'ulp:4'

def failure = new XmlSlurper().parse(new File(reports, 'TEST-patchgrade.three-column.trunc.xml')).testcase.find { it.@name == 'tenths-15' }.failure
assert failure.@type == 'candidate_regression'
assert failure.@message == 'candidate_regression: reference=<2> candidate=<1> golden=<2>'

def feedback = new File(reports, 'patchgrade.three-column.trunc.feedback.jsonl').readLines().collect { new JsonSlurper().parseText(it) }
assert feedback*.id == ['tenths-5', 'tenths-15', 'tenths-neg-5', 'tenths-neg-15']
feedback.each { assert it.keySet() == ['id', 'args', 'reference', 'candidate', 'pattern'] as Set }
assert feedback.find { it.id == 'tenths-15' }.reference == '2\n'

def log = new File(basedir, 'build.log').text
assert log.contains('worst pattern: candidate_regression')
assert log.contains('BUILD SUCCESS')

// Run under a German locale (see invoker.properties): every time is a dot decimal.
reports.listFiles().findAll { it.name.endsWith('.xml') }.each { file ->
    def suite = new XmlSlurper().parse(file)
    assert suite.@time.text() ==~ /\d+\.\d{3}/ : "${file.name}: ${suite.@time}"
    suite.testcase.each { assert it.@time.text() ==~ /\d+\.\d{3}/ }
}
assert log.contains('jvm-locale=de_DE')
