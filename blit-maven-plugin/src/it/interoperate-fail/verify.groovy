// Asserts on the build log and the report the check wrote (target/blit-layout-report.txt).
def log = new File(basedir, 'build.log').text
def reportFile = new File(basedir, 'target/blit-layout-report.txt')
// The baseline matches; only the modes that must interoperate disagree.
assert log.contains('BUILD FAILURE')
assert log.contains('does not match: 1 problem')
assert log.contains('example.Mixed: layout differs between modes that must interoperate: default=f9b1fe3d40c5ab17 compact-headers=de1cd9ee1da37e57')
assert log.contains("written in default, read in compact-headers: example.Mixed: field 'count' moved from +0 (writer) to +8 (reader)")
assert reportFile.text.contains("field 'count' moved from +0 (writer) to +8 (reader)")
