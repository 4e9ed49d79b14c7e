import groovy.json.JsonSlurper
import groovy.xml.XmlSlurper

def reports = new File(basedir, 'target/patchgrade-reports')
def json = { name -> new JsonSlurper().parse(new File(reports, "patchgrade.${name}.json")) }
def xml = { name -> new XmlSlurper().parse(new File(reports, "TEST-patchgrade.${name}.xml")) }
def log = new File(basedir, 'build.log').text
// One chunk per invocation of invoker.properties.
def runs = log.split('Scanning for projects').drop(1)
assert runs.size() == 4 : runs.size()
def (record, grade, verbose, hint) = runs

// Recording: the basedir rule keeps the checkout's path out of the gold; without it, one warning names the case.
def missing = new JsonSlurper().parse(new File(basedir, 'target/gold-raw/missing-script.json'))
assert missing.stderr_excerpt == "mini: cannot open ${basedir.canonicalPath}/scripts/nope.mini\n" || missing.stderr_excerpt.contains('/scripts/nope.mini')
assert record.contains("[WARNING] the recorded output of 1 case(s) contains the project's absolute path ")
assert record.contains(': missing-script. These digests will drift when the project is checked out elsewhere. Add the rule <normalize><rule>basedir</rule></normalize>')
assert record.contains('then re-record with `mvn compile patchgrade:record-digest@record-raw -Dpatchgrade.force=true`')
assert (record =~ /contains the project's absolute path/).count == 1 : 'only the execution without the rule warns'
// Gold excerpts beside the hashes, normalised like them.
def asanGold = new File(basedir, 'src/test/patchgrade/gold-asan-ubsan')
def greeting = new JsonSlurper().parse(new File(asanGold, 'greeting.json'))
assert greeting.stdout_excerpt == 'MINI_GREETING=hej\n' : 'the case env reached the child'
assert greeting.stderr_excerpt == ''
assert new JsonSlurper().parse(new File(asanGold, 'missing-script.json')).stderr_excerpt == 'mini: cannot open ${basedir}/scripts/nope.mini\n'
def slow = new JsonSlurper().parse(new File(asanGold, 'slow.json'))
assert slow.sanitizer == 'clean' && slow.exit == 0 : 'timeout_s 60 overrides the goal timeout of 2 s'
assert new JsonSlurper().parse(new File(basedir, 'src/test/patchgrade/gold/slow.json')).sanitizer == 'clean'
// ASan+UBSan: both markers read, and one summary warning for a build that is not sanitizer-clean.
def overflow = new JsonSlurper().parse(new File(asanGold, 'overflow.json'))
assert overflow.sanitizer == 'ubsan'
assert overflow.stderr_excerpt.contains('runtime error: signed integer overflow')
assert record.contains('[WARNING] 1 of 6 case(s) were recorded with a sanitizer class other than clean: overflow (ubsan). ')
assert (record =~ /sanitizer class other than clean/).count == 1

// Grading: a -D that the POM overrides says so.
assert grade.contains('[WARNING] -Dpatchgrade.gold=target/not-the-committed-gold is ignored by patchgrade:digest@plain: the POM configures <gold>')
assert !grade.contains('ignored by patchgrade:three-column') : 'three-column has no gold parameter'
// Each goal names the oracle files it uses.
assert grade.contains('[INFO] digest plain: cases ' + new File(basedir, 'src/test/patchgrade/cases.jsonl').path + ', gold ')
assert grade.contains('[INFO] three-column report: cases ')

// A passing digest lists no rows, only the counts.
assert json('digest.plain').verdict == 'pass'
assert grade.contains('[INFO] 6 more case(s) not listed (6 passed; list every case with -Dpatchgrade.verbose=true)')
assert json('digest.asan').verdict == 'pass' : json('digest.asan').cases.findAll { it.verdict == 'fail' }

// A stdout drift shown as its first differing line, gold beside candidate, in the console, the XML and the HTML.
def patchedLine = 'stdout line 4: gold <101> | candidate <100>'
assert grade.contains('[INFO] sums  FAIL     stdout_sha256: 8f0213f0e1c4 -> ') || grade =~ /sums +FAIL +stdout_sha256: [0-9a-f]{12} -> [0-9a-f]{12}/
assert grade.contains(patchedLine)
def sums = xml('digest.patched').testcase.find { it.@name == 'sums' }
assert sums.failure.@type == 'stdout_sha256'
assert sums.failure.@message.text().contains(patchedLine)
assert sums.failure.text().contains(patchedLine)
assert json('digest.patched').cases.find { it.case == 'sums' }.first_difference[0].line == 4
def summary = new File(reports, 'index.html').text
assert summary.contains('stdout line 4: gold &lt;101&gt; | candidate &lt;100&gt;')
// The empty stream named as such.
def warnLine = "stderr line 1: gold (empty stream) | candidate <mini: warning: the 'add' statement is deprecated>"
assert grade.contains(warnLine)
assert grade =~ /hello +FAIL +stderr_sha256: e3b0c44298fc \(empty\) -> [0-9a-f]{12}/
assert xml('digest.warn').testcase.find { it.@name == 'hello' }.failure.@message.text().contains('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 (empty) -> ')
assert summary.contains('e3b0c44298fc (empty)')

// Three-column: the difference lies past the 60th character, and every excerpt is centred on it.
def row = grade.readLines().find { it.contains('seven-values  candidate_regression') }
assert row.contains('candidate=<...total=4711 average=673.00 median=99 max=3052 checksum=0xf212>') : row
assert row.contains('golden=<...total=4711 average=673.00 median=99 max=3052 checksum=0xf211>') : row
assert xml('three-column.report').testcase.find { it.@name == 'seven-values' }.failure.@message.text().contains('checksum=0xf212>')
assert summary.contains('checksum=0xf212')
// The error-path row: both binaries exit 2 as expect_exit says, so it is compared normally and passes.
def report = json('three-column.report')
assert report.rows.find { it.id == 'usage' }.pattern == 'pass_all_agree'
assert report.counts == [candidate_regression: 2, pass_all_agree: 1]
// Passing rows only with -Dpatchgrade.verbose.
assert !grade.contains('usage         pass_all_agree')
assert grade.contains('1 more row(s) not listed; list every row with -Dpatchgrade.verbose=true')
assert verbose =~ /usage +pass_all_agree +reference=<> candidate=<> golden=<>/

// The re-record hint the patched digest printed ran as printed.
assert grade.contains('[INFO] if the new behaviour is intended, re-record the gold on the known-good build with `mvn compile patchgrade:record-digest@patched -Dpatchgrade.force=true`')
assert sums.failure.text().contains('if the new behaviour is intended: mvn compile patchgrade:record-digest@patched -Dpatchgrade.force=true')
assert hint.contains('record-digest patched: cases ')
assert hint.contains('BUILD SUCCESS')
def rerecorded = new JsonSlurper().parse(new File(basedir, 'src/test/patchgrade/gold/sums.json'))
assert rerecorded.stdout_excerpt == 'sums\n5\n42\n100\n610\ndone\n' : 'recorded from the patched binary'
