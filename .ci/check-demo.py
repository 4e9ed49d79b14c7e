#!/usr/bin/env python3
"""Checks what the README's first command (`./mvnw -B verify -Pdemo`) graded: each execution of the bundled
example has its JUnit XML and JSON report, and the verdict the README promises a newcomer. The demo runs with
testFailureIgnore, so its build succeeds whatever the verdicts are; this is what fails when they change.

Usage: check-demo.py REPORTS_DIR (examples/score-lookup/target/patchgrade-reports)
Prints each broken promise and exits 1 if there is one."""
import json
import os
import sys
import xml.etree.ElementTree as ET

# execution -> (verdict, worst failure or pattern, failing cases; None: not a case count)
EXPECTED = {
    'envelope.scan': ('accept', 'accept', None),
    'envelope.cache-patch': ('reject', 'rss', None),
    'digest.parse-amount': ('pass', 'pass', 0),
    'digest.warn-patch': ('fail', 'stderr_sha256', None),
    'three-column.trunc-patch': ('fail', 'candidate_regression', None),
    'differential.fast-patch': ('pass', 'pass_agree', 0),
    'differential.trunc-differential': ('fail', 'candidate_differs', None),
    'patch-coverage.warn-patch-coverage': ('pass', 'pass', None),
}


def check(reports):
    problems = []
    for execution, (verdict, worst, failing) in EXPECTED.items():
        json_file = os.path.join(reports, 'patchgrade.%s.json' % execution)
        xml_file = os.path.join(reports, 'TEST-patchgrade.%s.xml' % execution)
        if not os.path.isfile(json_file) or not os.path.isfile(xml_file):
            problems.append('%s: no report (%s)' % (execution, json_file if not os.path.isfile(json_file) else xml_file))
            continue
        with open(json_file, encoding='utf-8') as f:
            report = json.load(f)
        if report.get('verdict') != verdict or report.get('worst') != worst:
            problems.append('%s: verdict %s, worst %s; the README promises %s, %s'
                            % (execution, report.get('verdict'), report.get('worst'), verdict, worst))
        if failing is not None and report.get('failing') != failing:
            problems.append('%s: %s failing case(s), expected %d' % (execution, report.get('failing'), failing))
        suite = ET.parse(xml_file).getroot()
        failed = int(suite.get('failures', '0')) + int(suite.get('errors', '0'))
        if int(suite.get('errors', '0')) or (failed > 0) != (verdict in ('fail', 'reject')):
            problems.append('%s: the JUnit XML has %s failure(s) and %s error(s) for verdict %s'
                            % (execution, suite.get('failures'), suite.get('errors'), verdict))
    # "each differing case shrunk to a one-digit input"
    feedback = os.path.join(reports, 'patchgrade.differential.trunc-differential.feedback.jsonl')
    if os.path.isfile(feedback):
        with open(feedback, encoding='utf-8') as f:
            shrunk = [json.loads(line) for line in f if line.strip()]
        long_inputs = [c['id'] for c in shrunk if len(c['args']) != 1 or len(c['args'][0].lstrip('-')) != 1]
        if not shrunk or long_inputs:
            problems.append('differential.trunc-differential: %d shrunk case(s), not one digit: %s' % (len(shrunk), long_inputs[:5]))
    else:
        problems.append('differential.trunc-differential: no feedback file %s' % feedback)
    return problems


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = check(sys.argv[1])
    for problem in problems:
        print(problem)
    print('%d execution(s) checked, %d problem(s)' % (len(EXPECTED), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
