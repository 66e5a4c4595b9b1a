// record-layout (goal run from the command line) compiled the project and wrote the baseline.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('recorded 3 layouts (1 classes in modes default,compact-headers,uncompressed-class-pointers)')
def baseline = new File(basedir, 'layout-baseline.txt').text
assert baseline.contains("#   mvn io.blit:blit-maven-plugin:${projectVersion}:record-layout")
assert baseline.contains('blit-layout-baseline 1')
assert baseline.contains('layout example.Quote mode=default start=12 length=15')
assert baseline.contains('  @12 int qty in example.Quote')
assert baseline.contains('layout example.Quote mode=compact-headers start=8 length=15')
assert baseline.contains('  @8 long price in example.Quote')
assert baseline.contains('layout example.Quote mode=uncompressed-class-pointers start=16 length=15')
