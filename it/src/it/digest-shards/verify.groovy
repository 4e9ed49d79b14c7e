import groovy.json.JsonSlurper
import groovy.xml.XmlSlurper

def reports = new File(basedir, 'target/patchgrade-reports')
def cases = { id -> new JsonSlurper().parse(new File(reports, "patchgrade.digest.${id}.json")).cases*.case }
def one = cases('agent-1')
def two = cases('agent-2')
assert !one.isEmpty() && !two.isEmpty()
assert one.intersect(two).isEmpty() : 'no case is graded twice'
assert (one + two) as Set == new File(basedir, 'src/test/patchgrade/cases.txt').readLines().findAll { it } as Set
def suite = { id -> new XmlSlurper().parse(new File(reports, "TEST-patchgrade.digest.${id}.xml")).@name.text() }
assert suite('agent-1') == 'digest-shards.patchgrade.digest.agent-1.shard-1-of-2'
assert suite('agent-2') == 'digest-shards.patchgrade.digest.agent-2.shard-2-of-2'
assert new JsonSlurper().parse(new File(reports, 'patchgrade.digest.agent-1.json')).shard == '1/2'
assert new File(reports, 'index.html').text.contains('digest.agent-2')
def gold = new File(basedir, 'src/test/patchgrade/gold').listFiles().collect { new JsonSlurper().parse(it) }
assert gold.every { !it.containsKey('time_bucket') && !it.containsKey('time_ms') } : 'timeBuckets=off records no time'
assert new File(basedir, 'build.log').text.contains('BUILD SUCCESS')
