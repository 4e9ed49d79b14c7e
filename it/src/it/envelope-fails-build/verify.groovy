import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert log =~ /score_lookup cache: rss: [0-9,]+ KB > [0-9,]+ KB \(\+\d+%\); /
assert log.contains('re-record with `mvn compile patchgrade:record-envelope@cache -Dpatchgrade.force=true`')
def report = new JsonSlurper().parse(new File(basedir, 'target/patchgrade-reports/patchgrade.envelope.cache.json'))
assert report.verdict == 'reject'
assert report.reasons[0] == 'rss'
assert new File(basedir, 'target/patchgrade-reports/TEST-patchgrade.envelope.cache.xml').text.contains('type="rss"')

// The printed hint ran as printed: it re-recorded from the cache execution's command, so the grade accepts.
assert log.contains('record-envelope cache: writing envelope ')
assert log =~ /Recorded .*envelope\.json from 1 run\(s\) of .*score_lookup cache/
def recorded = new JsonSlurper().parse(new File(basedir, 'src/test/patchgrade/envelope.json'))
assert recorded.cmd == ['target/bin/score_lookup', 'cache'] : 'every path in the recorded file is relative to the project'
assert log.contains('verdict: ACCEPT')
assert new JsonSlurper().parse(new File(basedir, 'target/after-rerecord/patchgrade.envelope.cache.json')).verdict == 'accept'
assert !log.contains("'command' missing") && !log.contains('parameters \'command\'')
