import groovy.json.JsonSlurper
import groovy.xml.XmlSlurper

def log = new File(basedir, 'build.log').text
def runs = log.split(/(?m)^\[INFO\] Scanning for projects/).findAll { it.contains('BUILD') }
assert runs.size() == 3 : runs.size()

def report = { dir, name -> new JsonSlurper().parse(new File(basedir, "target/${dir}/patchgrade.${name}.json")) }
def size = { args, stdin -> args.sum(0) { Math.max(1, it.codePointCount(0, it.length())) } + (stdin == null ? 0 : stdin.length()) }

['first-reports', 'patchgrade-reports', 'drawn-reports'].eachWithIndex { dir, run ->
    // The table answers every committed row: three-column cannot tell it from the reference.
    def rows = report(dir, 'three-column.table-rows')
    assert rows.verdict == 'pass' : dir
    assert rows.rows*.pattern == ['pass_all_agree'] * 6 : dir

    // On inputs nobody committed it truncates, and differential says so.
    def table = report(dir, 'differential.table-lookup')
    assert table.verdict == 'fail' && table.worst == 'candidate_differs' : dir
    assert table.generated == 120 && table.cases.size() == 120 : dir
    assert table.counts.candidate_differs > 10 : table.counts
    def differing = table.cases.findAll { it.pattern == 'candidate_differs' }
    assert differing.size() == table.failing
    differing.each { c ->
        // Smaller, unless it was 1-minimal already (a drawn "45": "4" agrees and "5" is in the table).
        assert c.shrunk.smaller == (size(c.shrunk.args, c.shrunk.stdin) < size(c.args, c.stdin)) : c.id
        assert c.shrunk.smaller || c.shrunk.args == c.args : c.id
        assert c.shrunk.reference.stdout != c.shrunk.candidate.stdout : c.id
        assert c.shrunk.run_pairs <= 200
        assert c.shrunk.args.size() == 1 : "the note tenths ignores goes: ${c.id} ${c.shrunk.args}"
    }
    assert differing.count { it.shrunk.smaller } >= differing.size() * 0.8 : "most inputs have a digit or a sign to lose"

    // The feedback gives the next generation the smallest input that differs and both outputs on it.
    def feedback = new File(basedir, "target/${dir}/patchgrade.differential.table-lookup.feedback.jsonl").readLines().collect { new JsonSlurper().parseText(it) }
    assert feedback*.id == differing*.id
    feedback.each { line ->
        def c = differing.find { it.id == line.id }
        assert line.args == c.shrunk.args && line.original.args == c.args
        assert size(line.args, line.stdin) <= size(line.original.args, line.original.stdin) : line
        assert line.reference != line.candidate && line.pattern == 'candidate_differs'
        assert line.seed == table.seed
    }

    def honest = report(dir, 'differential.honest')
    assert honest.verdict == 'pass' && honest.worst == 'pass_agree' : dir
    assert honest.counts == [pass_agree: 120]
    assert honest.seed == table.seed : 'one seed for the build'
    assert new File(basedir, "target/${dir}/patchgrade.differential.honest.feedback.jsonl").text == ''

    // The seed is in every report.
    def suite = new XmlSlurper().parse(new File(basedir, "target/${dir}/TEST-patchgrade.differential.table-lookup.xml"))
    assert suite.properties.property.find { it.@name == 'patchgrade.seed' }.@value.text() == table.seed.toString()
    assert suite.testcase.size() == 120
    assert suite.testcase.find { it.@name == differing[0].id }.failure.@type == 'candidate_differs'
    def page = new File(basedir, "target/${dir}/index.html").text
    assert page.contains('differential.table-lookup') && page.contains("<code class=\"seed\">${table.seed}</code>")
    assert page.contains('120 generated cases')

    // check reads the differential reports like every other grade's.
    assert runs[run].contains('patchgrade check: 1 of 3 grading execution(s) of differential-table-lookup failed')
    assert runs[run].contains("differential.table-lookup: candidate_differs (${differing.size()} of 120 case(s) failing)")
    assert runs[run].contains('BUILD FAILURE')
}

// With this seed every differing input has something to lose: each feedback line is smaller than its case.
new File(basedir, 'target/patchgrade-reports/patchgrade.differential.table-lookup.feedback.jsonl').readLines().each {
    def line = new JsonSlurper().parseText(it)
    assert size(line.args, line.stdin) < size(line.original.args, line.original.stdin) : line
}

// The same seed reproduces the same cases and the same verdicts, shrunk inputs included.
def verdicts = { dir -> report(dir, 'differential.table-lookup').cases.collect { [it.id, it.args, it.pattern, it.shrunk?.args] } }
def first = report('first-reports', 'differential.table-lookup')
def second = report('patchgrade-reports', 'differential.table-lookup')
assert first.seed == 20240601 && first.seed_given
assert second.seed == 20240601
assert verdicts('first-reports') == verdicts('patchgrade-reports')
assert new File(basedir, 'target/first-reports/patchgrade.differential.table-lookup.feedback.jsonl').text ==
        new File(basedir, 'target/patchgrade-reports/patchgrade.differential.table-lookup.feedback.jsonl').text

// Without -Dpatchgrade.seed the build draws one, prints it with the flag that reproduces it, and grades other cases.
def drawn = report('drawn-reports', 'differential.table-lookup')
assert !drawn.seed_given && drawn.seed != 20240601
assert runs[2].contains("differential table-lookup: seed ${drawn.seed} (drawn for this build; reproduce with -Dpatchgrade.seed=${drawn.seed})")
assert runs[2].contains("seed ${drawn.seed}: the same cases again with -Dpatchgrade.seed=${drawn.seed}")
assert verdicts('drawn-reports')*.get(1) != verdicts('first-reports')*.get(1)
assert runs[0].contains('differential table-lookup: seed 20240601 (given)')
