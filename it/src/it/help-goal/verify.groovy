def log = new File(basedir, 'build.log').text
assert log.contains('patchgrade:help')
assert log.contains('BUILD SUCCESS')
