// Asserts on the build log and the report the check wrote (target/blit-layout-report.txt).
def log = new File(basedir, 'build.log').text
def reportFile = new File(basedir, 'target/blit-layout-report.txt')
assert log.contains('BUILD SUCCESS')
assert log.contains('1 classes match in modes default,compact-headers,uncompressed-class-pointers; modes default,compact-headers share every layout')
