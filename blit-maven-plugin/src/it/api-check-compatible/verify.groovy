// The api-check profile ran (its report is there) and passed: an added method breaks no caller.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('japicmp')
assert new File(basedir, 'target/japicmp/api-check.diff').isFile()
