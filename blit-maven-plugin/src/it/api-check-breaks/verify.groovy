// The api-check profile (japicmp against the 1.0 baseline the setup project installed) fails on the changed return type.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert log.contains('There is at least one incompatibility: io.blit.it.api.Lib.size():METHOD_RETURN_TYPE_CHANGED')
