"""Reads a JUnit XML file with junitparser (Debian's python3-junitparser) and prints what it saw as JSON."""
import json
import sys

from junitparser import Error, Failure, JUnitXml, Skipped, TestSuite

xml = JUnitXml.fromfile(sys.argv[1])
suites = [xml] if isinstance(xml, TestSuite) else list(xml)
seen = {"suites": [], "tests": 0, "failures": 0, "errors": 0, "skipped": 0, "types": [], "names": []}
for suite in suites:
    seen["suites"].append(suite.name)
    for case in suite:
        seen["tests"] += 1
        seen["names"].append(case.name)
        for result in case.result:
            if isinstance(result, Failure):
                seen["failures"] += 1
                seen["types"].append(result.type)
            elif isinstance(result, Error):
                seen["errors"] += 1
                seen["types"].append(result.type)
            elif isinstance(result, Skipped):
                seen["skipped"] += 1
print(json.dumps(seen))
