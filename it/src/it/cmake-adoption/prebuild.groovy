// The team's repository before the patch: the project as committed, the known-good commit.
def git = { List<String> args ->
    def p = (['git', '-c', 'user.name=it', '-c', 'user.email=it@example.invalid', '-c', 'commit.gpgsign=false'] + args)
            .execute(null, basedir)
    def out = new StringBuilder()
    p.waitForProcessOutput(out, out)
    assert p.exitValue() == 0 : "git ${args}: ${out}"
}
new File(basedir, '.gitignore').text = 'target/\nbuild.log\n'
git(['init', '-q', '.'])
git(['add', '-A'])
git(['commit', '-q', '-m', 'stats, known good'])
return true
