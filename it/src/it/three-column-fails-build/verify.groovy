def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert log.contains('4 graded item(s) broke an oracle, worst: candidate_regression')
def feedback = new File(basedir, 'target/patchgrade-reports/patchgrade.three-column.trunc.feedback.jsonl').text
assert feedback.readLines().size() == 4
assert !feedback.contains('golden') : 'the feedback for the next generation request never carries the golden'
// A failing row's body gives both programs' exit status and how their stderr ends, not only the pattern.
def body = new File(basedir, 'target/patchgrade-reports/TEST-patchgrade.three-column.trunc.xml').text
assert body.contains('reference: exit 0; stderr was empty')
assert body.contains('candidate: exit 0; stderr was empty')
