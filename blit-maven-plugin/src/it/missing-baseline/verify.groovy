// Asserts on the build log and the report the check wrote (target/blit-layout-report.txt).
def log = new File(basedir, 'build.log').text
def reportFile = new File(basedir, 'target/blit-layout-report.txt')
assert log.contains('BUILD FAILURE')
assert log.contains('layout-baseline.txt does not exist; record it first:')
assert log.contains("mvn io.blit:blit-maven-plugin:${projectVersion}:record-layout")
assert reportFile.text.contains('does not exist; record it first:')
