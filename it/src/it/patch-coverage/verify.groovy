import groovy.json.JsonSlurper
import groovy.xml.XmlSlurper

def marked = { marker ->
    def lines = new File(basedir, 'src/main/c/calc.c').readLines()
    (0..<lines.size()).findAll { lines[it].contains("/*${marker}*/") }.collect { it + 1 }
}
def ranges = { List<Integer> lines ->
    def out = []
    def start = null, last = null
    lines.sort().each { n ->
        if (last != null && n == last + 1) { last = n; return }
        if (start != null) out << (start == last ? "${start}" : "${start}-${last}")
        start = n; last = n
    }
    if (start != null) out << (start == last ? "${start}" : "${start}-${last}")
    out.join(', ')
}
def run = marked('R')
def never = marked('N')
assert run.size() == 3 && never.size() == 3

def reports = new File(basedir, 'target/patchgrade-reports')
def json = new JsonSlurper().parse(new File(reports, 'patchgrade.patch-coverage.cases-reach.json'))
assert json.goal == 'patch-coverage'
assert json.base == 'HEAD~1'
assert json.sandbox.mode == 'namespaces'
assert json.cases == 3
assert json.files*.file == ['src/main/c/calc.c']
def calc = json.files[0]
assert calc.run_lines == run : calc.run_lines
assert calc.not_run_lines == never : calc.not_run_lines
assert calc.not_run_ranges == ranges(never)
// Which cases ran each line, in file order; the child process of add-in-a-child counts.
calc.lines.findAll { it.line in run }.each { assert it.first_cases == ['add-small', 'add-negative', 'add-in-a-child'] : it }
calc.lines.findAll { it.line in never }.each { assert it.first_cases == [] && it.count == 0 : it }
assert calc.hunks.size() == 2

def xml = new XmlSlurper().parse(new File(reports, 'TEST-patchgrade.patch-coverage.cases-reach.xml'))
assert xml.testcase.size() == 1
assert xml.testcase[0].@name == 'src/main/c/calc.c'
assert xml.testcase[0].@classname == 'patch-coverage.patchgrade.patch-coverage.cases-reach'
// The second run (minimumPercent=100) wrote these reports: the file fails, naming the lines never run.
assert xml.testcase[0].failure.@type == 'lines_not_run'
assert xml.testcase[0].failure.@message.text() == "lines_not_run: 3 of 6 changed executable lines run (50%) < minimumPercent 100; never run: ${ranges(never)}"
assert json.verdict == 'fail'

def page = new File(reports, 'index.html').text
assert page.contains('NOT RUN') && page.contains('<tr class="notrun">') && !page.contains('<script')

// Nothing went into the source tree.
def stray = []
new File(basedir, 'src').eachFileRecurse { if (it.name.endsWith('.gcda') || it.name.contains('.gcov')) stray << it }
new File(basedir, 'target/obj').eachFile { if (it.name.endsWith('.gcda')) stray << it }
assert stray.isEmpty() : stray

def log = new File(basedir, 'build.log').text
def builds = log.split(/(?m)^\[INFO\] Scanning for projects/).findAll { it.contains('BUILD') }
assert builds.size() == 2
assert builds[0].contains('patch coverage: 3 of 6 changed executable line(s) run (50%) by 3 case(s); minimumPercent 0')
assert builds[0].contains('BUILD SUCCESS')
assert builds[1].contains('BUILD FAILURE')
assert builds[1].contains("src/main/c/calc.c: 3 of 6 changed executable lines run (50%) < minimumPercent 100; never run: ${ranges(never)}")
