// 20,000 cases, written here rather than committed: the file is the IT's input, not worth 240 KB of history.
def cases = new File(basedir, 'src/test/patchgrade/cases.txt')
cases.parentFile.mkdirs()
cases.withWriter('UTF-8') { out ->
    (1..20000).each { out.write(String.format('case-%06d\n', it)) }
}
return true
