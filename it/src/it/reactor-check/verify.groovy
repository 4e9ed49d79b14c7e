import groovy.json.JsonSlurper
import groovy.xml.XmlSlurper
import java.nio.file.Files
import java.nio.file.attribute.PosixFilePermissions

def log = new File(basedir, 'build.log').text

// Three builds with two modules at once into an empty cache: the helper was built, verified and used every time.
(1..3).each { n ->
    def helpers = new File(basedir, "helper-cache-${n}").listFiles().findAll { it.name.startsWith('helper-') }
    assert helpers.size() == 1 : "cache ${n}: ${helpers}"
    assert new File(helpers[0], 'pg-launch-helper').canExecute()
    assert new File(helpers[0], 'pg-launch-helper.sha256').text.trim() ==~ /[0-9a-f]{64}/
    assert helpers[0].list().findAll { it.startsWith('.build-') }.isEmpty() : 'no attempt left behind'
}
assert !log.contains('cannot measure peak RSS') : 'every module measured through the helper'
assert !log.contains('Text file busy')
assert log.count('BUILD FAILURE') == 3

['billing', 'scoring'].each { module ->
    def reports = new File(basedir, "${module}/target/patchgrade-reports")
    def json = { id -> new JsonSlurper().parse(new File(reports, "patchgrade.envelope.${id}.json")) }
    assert json('scan').verdict == 'accept'
    assert json('scan').measured.max_rss_kb > 0
    assert json('tight').verdict == 'reject'
    // File names stay as the contract fixes them; suite and class names lead with the artifactId.
    def xml = new XmlSlurper().parse(new File(reports, 'TEST-patchgrade.envelope.tight.xml'))
    assert xml.@name == "${module}.patchgrade.envelope.tight"
    assert xml.testcase.@classname == "${module}.patchgrade.envelope.tight"
    assert xml.@hostname.text() && xml.@timestamp.text() ==~ /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/
    // The module's page: its name in the title, styles in patchgrade.css, nothing inline.
    def page = new File(reports, 'index.html').text
    assert page.contains("<title>patchgrade: ${module}</title>")
    assert page.contains('<link rel="stylesheet" href="patchgrade.css">') && new File(reports, 'patchgrade.css').isFile()
    assert !page.contains('style=') && !page.contains('<style')
    // Readable by others, within the umask.
    def umask = Integer.parseInt(new File('/proc/self/status').readLines().find { it.startsWith('Umask:') }.split(':')[1].trim(), 8)
    def expected = { int mode -> PosixFilePermissions.toString(PosixFilePermissions.fromString('rwxrwxrwx').findAll { p ->
        (mode & (1 << (8 - p.ordinal()))) != 0 } as Set) }
    reports.listFiles().findAll { it.isFile() }.each { f ->
        assert PosixFilePermissions.toString(Files.getPosixFilePermissions(f.toPath())) == expected(0666 & ~umask) : f
    }
    assert PosixFilePermissions.toString(Files.getPosixFilePermissions(reports.toPath())) == expected(0777 & ~umask)
}

// Surefire's line and the worst failure type after each execution.
assert log =~ /Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: [0-9.]+ s - in billing\.patchgrade\.envelope\.tight/
assert log =~ /Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: [0-9.]+ s - in scoring\.patchgrade\.envelope\.scan/
assert log.contains('worst: rss') && log.contains('worst: minflt')

// Fail at end: each module's check lists its failing execution, once.
assert log.contains('patchgrade check: 1 of 2 grading execution(s) of billing failed')
assert log.contains('envelope.tight: rss (rejected for rss)')
assert log.contains('patchgrade check: 1 of 2 grading execution(s) of scoring failed')
assert log.contains('envelope.tight: minflt (rejected for minflt)')

// The top-level project's page lists both modules and links to their pages.
def top = new File(basedir, 'target/patchgrade-reports/index.html').text
assert top.contains('<title>patchgrade: every module</title>')
assert top.contains('href="../../billing/target/patchgrade-reports/index.html">billing</a>')
assert top.contains('href="../../scoring/target/patchgrade-reports/index.html#envelope.tight">envelope.tight</a>')
assert new File(basedir, 'target/patchgrade-reports/patchgrade.css').isFile()
