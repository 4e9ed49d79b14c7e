import groovy.json.JsonSlurper
import groovy.xml.XmlSlurper

def reports = new File(basedir, 'target/patchgrade-reports')
def json = { id -> new JsonSlurper().parse(new File(reports, "patchgrade.envelope.${id}.json")) }
def xml = { id -> new XmlSlurper().parse(new File(reports, "TEST-patchgrade.envelope.${id}.xml")) }
def log = new File(basedir, 'build.log').text

def envelope = new JsonSlurper().parse(new File(basedir, 'src/test/patchgrade/envelope.json'))
assert envelope.cmd == ['target/bin/score_lookup', 'scan'] : 'written relative to the project'
// The larger of <timeout> (5 s) and 10x the slowest run, in whole seconds: on a loaded agent a run can pass 0.5 s.
def slowestMs = envelope.measured.runs*.wall_ms.max()
assert envelope.timeout_s == Math.max(5L, (long) Math.ceil(slowestMs * 10 / 1000.0)) : "${envelope.timeout_s} s for a slowest run of ${slowestMs} ms"
assert envelope.max_rss_kb == Math.ceil(envelope.measured.max_rss_kb * 1.3) + 1024
assert envelope.max_user_us == Math.ceil(envelope.measured.user_us * 1.5) + 50000
assert envelope.max_sys_us == Math.ceil(envelope.measured.sys_us * 1.5) + 50000 : 'user time moved into system time breaks this'
assert envelope.host.class && envelope.host.cores > 0
assert envelope.toolchain.startsWith('g++')
assert envelope.slack.rss_percent == 30 && envelope.slack.cpu_us == 50000
assert envelope.measured.runs.size() == 3
// Instructions: this machine has valgrind (.ci/run installs it) or hardware counters.
assert envelope.instruction_counter in ['perf', 'valgrind']
assert envelope.max_instructions == Math.ceil(envelope.measured.instructions * 1.02)
assert envelope.slack.instructions_percent == 2

def scan = json('scan')
assert scan.verdict == 'accept' : scan
assert scan.reasons == []
assert scan.runs.size() == 3
assert scan.measured.max_rss_kb == scan.runs*.max_rss_kb.min()
assert scan.ceilings.max_sys_us == envelope.max_sys_us && scan.figures.find { it.ceiling_key == 'max_sys_us' }.measured == scan.runs*.sys_us.min()
assert scan.measured.max_rss_kb < 10000 : 'the helper measures the child, not the Maven JVM'
assert scan.measured.instruction_counter == envelope.instruction_counter
assert scan.measured.instructions <= envelope.max_instructions
assert scan.figures.find { it.ceiling_key == 'max_instructions' }.ceiling == envelope.max_instructions

def cache = json('cache')
assert cache.verdict == 'reject'
assert cache.reasons[0] == 'rss' : cache.reasons
assert !cache.reasons.contains('stdout') : 'the cache patch prints the same total'
assert cache.measured.max_rss_kb > envelope.max_rss_kb
def rssFigure = cache.figures.find { it.ceiling_key == 'max_rss_kb' }
assert rssFigure.measured == cache.measured.max_rss_kb && rssFigure.ceiling == envelope.max_rss_kb
def summary = new File(reports, 'index.html').text
assert summary.contains('envelope.cache') && summary =~ /over by \d+%/
def cacheFailure = xml('cache').testcase.failure
assert cacheFailure.@type == 'rss'
// Jenkins shows the message, never the type: every reason is named in it with its figures, the first (rss)
// leading; more reasons (the cache also costs instructions) follow.
assert cacheFailure.@message.text() =~ /^rss: [0-9,]+ KB > [0-9,]+ KB \(\+\d+%\)/
assert cacheFailure.text().contains('mvn compile patchgrade:record-envelope@cache -Dpatchgrade.force=true')

// Eight times the work: the instruction count catches it on any machine, whatever its load; user CPU
// usually does too, but a busy agent may stretch the baseline's CPU time enough to hide it.
def heavy = json('heavy')
assert heavy.reasons[0] == 'instructions' : heavy.reasons
assert heavy.reasons - ['instructions', 'user_cpu'] == [] : heavy.reasons
assert heavy.measured.instructions > 7 * envelope.measured.instructions
assert xml('heavy').testcase.failure.@type == 'instructions'
assert xml('heavy').testcase.failure.@message.text() =~ /^instructions: [0-9,]+ > [0-9,]+ \(\+\d+%\)/
assert log.contains('verdict: REJECT (instructions')
assert summary.contains('max_instructions')

def crash = json('crash')
assert crash.reasons[0] == 'signal_SIGSEGV' : crash.reasons
assert crash.measured.instructions == null : 'a run that failed is not counted'
assert crash.measured.signal == 'SIGSEGV'

def hang = json('hang')
assert hang.reasons[0] == 'timeout'
assert hang.measured.timed_out == true
assert hang.measured.wall_ms >= 1000 : "killed by the 1 s timeout, not before: ${hang.measured.wall_ms} ms"

def otherHost = json('other-host')
assert otherHost.reasons == ['host_mismatch'] : otherHost.reasons
assert otherHost.host_differences[0].contains('recorded "' + envelope.host.class + '", this host is "ci-large-arm64"')
assert xml('other-host').testcase.failure.@type == 'host_mismatch'
assert json('other-host-warn').verdict == 'accept'
assert log.contains('host mismatch, host class: recorded')

def seed = json('seed-format')
assert seed.verdict == 'accept' : seed
assert log.contains('seed-envelope.json records no host class')

assert log.contains('verdict: REJECT (rss')

// A timed-out run's other figures are cut short: neither within nor over a ceiling.
def hangTable = log.substring(log.indexOf('envelope score_lookup hang against hang-envelope.json:'))
assert hangTable =~ /peak RSS +[0-9,]+ KB +65,536 KB +not graded \(timed out\)/
assert hangTable =~ /user CPU +[0-9,]+ us +2,000,000 us +not graded \(timed out\)/
assert !hangTable.substring(0, hangTable.indexOf('verdict:')).contains('% left')
assert xml('hang').testcase.failure.text().contains('not graded (timed out)')
assert summary.contains('not graded (timed out)')
// The recording says how it chose timeout_s; every path in it is relative to the project.
assert log =~ /timeout_s = ${envelope.timeout_s} s: the larger of <timeout> \(5 s\) and 10x the slowest run \([0-9.]+ s\), rounded up to whole seconds/
// Each goal names the oracle file it reads; an unknown key is a warning, not silence.
assert log.contains('envelope scan: envelope ' + new File(basedir, 'src/test/patchgrade/envelope.json').path + ', expected stdout ')
assert log.contains('seed-envelope.json: key "reviewed_by" is not one patchgrade reads; it is ignored')
assert log.contains('BUILD SUCCESS')
// The testcase is named by the execution id, which does not move with the workspace; the command opens its body.
assert xml('cache').testcase.@name.text() == 'cache'
assert xml('cache').testcase.failure.text().startsWith('command: ')
// The head has worst and shard, as every goal's does.
assert json('cache').worst == 'rss'
assert json('cache').containsKey('shard') && json('cache').shard == null
