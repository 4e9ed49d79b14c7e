import groovy.json.JsonSlurper
import groovy.xml.XmlSlurper

def reports = new File(basedir, 'target/patchgrade-reports')
def json = { String goal, String id -> new JsonSlurper().parse(new File(reports, "patchgrade.${goal}.${id}.json")) }
def xml = { String goal, String id -> new XmlSlurper().parse(new File(reports, "TEST-patchgrade.${goal}.${id}.xml")) }

// The recording steps wrote every oracle the page names, and the third step committed them before the patch.
def oracles = new File(basedir, 'src/test/patchgrade')
['reference.sha256', 'workload.json'].each { assert new File(oracles, it).isFile() : it }
['gold-plain', 'gold-asan'].each { assert new File(oracles, it).listFiles().size() == 11 : it }
assert new File(basedir, '../frozen-stats/bin/stats').canExecute()
def log = ['git', 'log', '--format=%s'].execute(null, basedir).text.readLines()
assert log == ['format_mean: one lldiv', 'oracles recorded on the known-good build', 'stats, known good'] : log

// Every oracle graded the patch (a rewrite that keeps the output) and passed it, with the sandbox on.
def digests = ['plain', 'asan'].collect { json('digest', it) }
digests.each { assert it.verdict == 'pass' && it.graded == 11 && it.failing == 0 : it.execution }
assert digests[1].sanitizer == 'asan+ubsan'
digests[1].cases.each { assert it.candidate.sanitizer == 'clean' : it }

def envelope = json('envelope', 'workload')
assert envelope.verdict == 'accept' && envelope.reasons == [] : envelope.reasons
assert envelope.measured.max_rss_kb > 5000000 * 8 / 1024 : 'the workload holds 5M numbers'

def rows = json('three-column', 'rows')
assert rows.verdict == 'pass' && rows.counts == [pass_all_agree: 6] : rows.counts

def fresh = json('differential', 'fresh-inputs')
assert fresh.verdict == 'pass' && fresh.generated == 200 && fresh.counts == [pass_agree: 200] : fresh.counts

def coverage = json('patch-coverage', 'patch')
assert coverage.verdict == 'pass' && coverage.base == 'HEAD~1'
assert coverage.files*.file == ['src/stats.cpp'] : coverage.files*.file
assert coverage.files[0].not_run_lines == [] && coverage.files[0].run_lines.size() == 5 : coverage.files[0]

[json('digest', 'plain'), envelope, rows, fresh, coverage].each { assert it.sandbox.mode == 'namespaces' : it.goal }
def junit = xml('digest', 'asan')
assert junit.testcase.size() == 11 && junit.testcase.failure.size() == 0 && junit.testcase.error.size() == 0
assert new File(reports, 'index.html').isFile()

def build = new File(basedir, 'build.log').text
assert build.contains('BUILD SUCCESS')
return true
