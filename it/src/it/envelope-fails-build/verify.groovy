import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert log =~ /score_lookup cache: rss.* rss: [0-9,]+ KB > [0-9,]+ KB/
assert log.contains('re-record with `mvn patchgrade:record-envelope -Dpatchgrade.force=true`')
def report = new JsonSlurper().parse(new File(basedir, 'target/patchgrade-reports/patchgrade.envelope.cache.json'))
assert report.verdict == 'reject'
assert report.reasons[0] == 'rss'
assert new File(basedir, 'target/patchgrade-reports/TEST-patchgrade.envelope.cache.xml').text.contains('type="rss"')
