def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert log.contains('4 graded item(s) broke an oracle, worst: candidate_regression')
def feedback = new File(basedir, 'target/patchgrade-reports/patchgrade.three-column.trunc.feedback.jsonl').text
assert feedback.readLines().size() == 4
assert !feedback.contains('golden') : 'the feedback for the next generation request never carries the golden'
