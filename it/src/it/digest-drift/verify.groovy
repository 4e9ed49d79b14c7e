import groovy.json.JsonSlurper
import groovy.xml.XmlSlurper

def reports = new File(basedir, 'target/patchgrade-reports')
def json = { id -> new JsonSlurper().parse(new File(reports, "patchgrade.digest.${id}.json")) }
def failing = { id -> json(id).cases.findAll { it.verdict == 'fail' } }
def xmlFailures = { id -> new XmlSlurper().parse(new File(reports, "TEST-patchgrade.digest.${id}.xml")).testcase.findAll { it.failure.size() > 0 } }

def gold = new File(basedir, 'src/test/patchgrade/gold-plain')
assert gold.listFiles().size() == 6
def oneGold = new JsonSlurper().parse(new File(gold, '1.005.json'))
assert oneGold.case == '1.005' && oneGold.exit == 0 && oneGold.sanitizer == 'clean' && oneGold.time_bucket == 'lt_100ms'
assert oneGold.time_ms instanceof Integer && oneGold.time_ms < 100 : 'the fastest of timeSamples runs is recorded'
assert oneGold.toolchain.startsWith('g++')
assert oneGold.time_basis == 'cpu' : 'the default time basis is recorded with the gold'
assert new JsonSlurper().parse(new File(basedir, 'src/test/patchgrade/gold-plain-wall/1.005.json')).time_basis == 'wall'
def ubsanGold = new File(basedir, 'src/test/patchgrade/gold-ubsan').listFiles().collect { new JsonSlurper().parse(it) }
assert ubsanGold*.sanitizer.every { it == 'clean' }

assert json('known-good').verdict == 'pass'
assert json('known-good').cases.size() == 6

def warn = failing('warn')
assert warn*.case == ['1.005'] : warn
assert warn[0].drift.size() == 1 && warn[0].drift[0].startsWith('stderr_sha256: ')
assert warn[0].drift_fields == ['stderr_sha256']
assert new File(reports, 'index.html').text.contains('<td class="drift">')
def warnXml = xmlFailures('warn')
assert warnXml.size() == 1 && warnXml[0].@name == '1.005' && warnXml[0].failure.@type == 'stderr_sha256'
assert warnXml[0].'system-err'.text().contains('WARN: rounding 1.005')

def ceil = failing('ceil')
assert ceil*.case == ['1.005']
assert ceil[0].drift.collect { it.split(':')[0] } == ['stdout_sha256']

assert json('overflow-plain').verdict == 'pass' : 'the -O2 build of the overflow patch is observably unchanged'
def overflow = failing('overflow-ubsan')
assert overflow.size() >= 2
overflow.each { assert it.drift[0] == 'sanitizer: clean -> ubsan' : it.drift }
assert xmlFailures('overflow-ubsan').every { it.failure.@type == 'sanitizer' }

def sleepy = failing('sleepy')
assert sleepy*.case == ['0']
assert sleepy[0].drift.size() == 1 && sleepy[0].drift[0].startsWith('time_bucket: lt_100ms -> lt_1s (fastest ')
assert sleepy[0].drift[0].contains(' ms wall of 3 runs; lt_100ms widened by timeBucketSlack 2 is 0-200 ms; gold fastest ')
assert sleepy[0].candidate.time_ms >= 300
assert sleepy[0].time_bucket_reruns == 2
assert xmlFailures('sleepy')[0].failure.@message.text().contains('stayed shifted over 2 reruns')
assert json('sleepy').time_basis == 'wall'
// A sleep takes no CPU time: on the default basis the sleeping candidate's buckets do not move.
assert json('sleepy-on-cpu').verdict == 'pass' && json('sleepy-on-cpu').time_basis == 'cpu'

def missing = failing('missing-ubsan-build')
assert missing.size() == 6
missing.each { assert it.drift[0] == 'sanitizer: clean -> unavailable' }

def cand = new File(basedir, 'target/patchgrade/cand/warn')
// SPEC: candidate digests of the cases that drifted only (every case with keepAll).
assert cand.listFiles()*.name == ['1.005.json']
assert new JsonSlurper().parse(new File(cand, '1.005.json')).stderr_sha256 != oneGold.stderr_sha256

def log = new File(basedir, 'build.log').text
assert log.contains('outcome: FAIL, 1 of 6 case(s) drifted')
assert log.contains('BUILD SUCCESS')
// A sanitizer finding reads as its own error line and first frame, and no body advises re-recording it.
def ubsanReport = new File(basedir, 'target/patchgrade-reports/TEST-patchgrade.digest.overflow-ubsan.xml').text
assert ubsanReport.contains('runtime error: signed integer overflow')
assert ubsanReport.contains('first frame: #0 in parse_amount')
assert !ubsanReport.contains('force')
