// Asserts on the build log and the report the check wrote (target/blit-layout-report.txt).
def log = new File(basedir, 'build.log').text
def reportFile = new File(basedir, 'target/blit-layout-report.txt')
// HotSpot lays fields out by size (then declaration order): declaring fields of different sizes in another
// order moves none of them, and the check says so rather than failing.
assert log.contains('BUILD SUCCESS')
assert log.contains('1 classes match in modes default,compact-headers,uncompressed-class-pointers')
