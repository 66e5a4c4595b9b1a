// -Dblit.layout.skip: the goal runs, checks nothing, writes no report, and the changed layout does not fail the build.
def log = new File(basedir, 'build.log').text
assert log.contains('Layout check skipped (blit.layout.skip)')
assert log.contains('BUILD SUCCESS')
assert !log.contains('does not match')
assert !new File(basedir, 'target/blit-layout-report.txt').exists()
