// Another generation of the same task, checked out beside this one as a grading farm does: its cases hold the same goldens.
def sibling = new File(basedir, '../sibling-gen-1/src/test/patchgrade')
sibling.mkdirs()
new File(sibling, 'cases.jsonl').text = new File(basedir, 'src/test/patchgrade/cases.jsonl').text
new File(basedir, '../sibling-gen-1/pom.xml').text = '<project/>\n'
return true
