// Asserts on the build log and the report the check wrote (target/blit-layout-report.txt).
def log = new File(basedir, 'build.log').text
def reportFile = new File(basedir, 'target/blit-layout-report.txt')
assert log.contains('BUILD FAILURE')
assert log.contains('does not match: 3 problems')
for (mode in ['default', 'compact-headers', 'uncompressed-class-pointers']) {
    assert log.contains("example.Quote [${mode}]: layout changed")
}
// Each field named with its old and new type and offset, in each mode.
assert log.contains("field 'price' type changed from long @16 to int @12")
assert log.contains("field 'qty' type changed from int @12 to long @16")
assert log.contains("field 'price' type changed from long @8 to int @16")
assert log.contains("field 'price' moved from @16 to @24")
assert log.contains('re-record the baseline:')
assert log.contains("io.blit:blit-maven-plugin:${projectVersion}:record-layout")
def report = reportFile.text
assert report.contains("field 'price' type changed from long @16 to int @12")
assert report.contains("io.blit:blit-maven-plugin:${projectVersion}:record-layout")
