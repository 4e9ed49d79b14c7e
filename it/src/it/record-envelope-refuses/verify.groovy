def log = new File(basedir, 'build.log').text
def envelope = new File(basedir, 'src/test/patchgrade/envelope.json')
assert envelope.bytes == new File(basedir, 'expected-envelope.json').bytes : 'the refused recording left the file byte-identical'
assert log.contains('refused_overwrite')
assert log.contains(envelope.path) || log.contains('src/test/patchgrade/envelope.json')
assert log.contains('-Dpatchgrade.force=true')
assert log.contains('BUILD FAILURE')
