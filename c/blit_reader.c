/*
 * blit_reader: prints every record of a Blit queue directory as `blit dump` prints it, written from docs/format.md
 * alone. C11 and POSIX, no other dependency; generic: each record is decoded with the layout descriptor its file
 * stores for its type, so it reads any queue, whatever its message classes.
 *
 *   cc -std=c11 -Wall -Werror -O2 -o blit_reader blit_reader.c && ./blit_reader DIR
 *
 * Output: the record lines of `blit dump` (index=I type=Name field=value ... appended=TIME), its gap lines
 * (# indices A..B abandoned, # index N: abandoned by a writer that died) and, at a live writer's claim after the
 * abandon grace and a second, "# stopped at index N: claimed by live writer W" (exit 1). Bad input: one line
 * "error: FILE at byte OFFSET: WHAT" on stderr, exit 2. Opens every file read-only (O_RDONLY, PROT_READ): writes,
 * creates and locks nothing. What it checks: each file header (magic, version, header length, CRC32C, byte order,
 * incompatible features, size, first index), the type table and each descriptor (magic, version, sizes, CRC32C, types,
 * order), every record word the walk meets (docs/format.md, "The record walk") and, in format 5, every printed
 * record's CRC32C ("Records"). It does not recompute descriptor
 * fingerprints (SHA-256) nor read consumers.blitc; the Python reader does both.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { RECORDS = 8192, MAX_TYPES = 128, MAX_FILES = 1 << 20 };
static const double GRACE_SECONDS = 1.0;

/* ---- errors: one line, exit 2 ---- */

static void fail(const char *path, long long offset, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "error: %s", path);
    if (offset >= 0) fprintf(stderr, " at byte %lld", offset);
    fputs(": ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
    fflush(stdout);
    exit(2);
}

/* ---- little-endian reads of header fields (records are native order: checked to be little-endian) ---- */

static uint32_t u32(const uint8_t *p) { return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24; }
static uint16_t u16(const uint8_t *p) { return (uint16_t) (p[0] | p[1] << 8); }
static uint64_t u64(const uint8_t *p) { return (uint64_t) u32(p) | (uint64_t) u32(p + 4) << 32; }

/* CRC32C continuing `crc` (0 to start): the CRC of the bytes before, then these. */
static uint32_t crc32c_more(uint32_t crc, const uint8_t *data, size_t n) {
    static uint32_t table[256];
    if (!table[1]) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
            table[i] = c;
        }
    }
    uint32_t c = crc ^ 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) c = table[(c ^ data[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static uint32_t crc32c(const uint8_t *data, size_t n) { return crc32c_more(0, data, n); }

/* ---- layout descriptors ---- */

typedef struct { char name[1025]; int type; int32_t offset; } field_t;
typedef struct { char simple[1025]; int32_t start, length; int big_endian; int nfields; field_t *fields; } layout_t;

static const int TYPE_SIZES[8] = {1, 1, 2, 2, 4, 4, 8, 8};

static const uint8_t *take_string(const char *path, long long at, const uint8_t **p, const uint8_t *end, char *out, int min) {
    if (end - *p < 2) fail(path, at, "descriptor string runs past its end");
    uint16_t n = u16(*p);
    if (n < min || n > 1024 || end - *p - 2 < n) fail(path, at, "descriptor string of %u bytes is out of range", n);
    if (out) { memcpy(out, *p + 2, n); out[n] = 0; }
    *p += 2 + n;
    return *p;
}

/* Parses the descriptor of `length` bytes at `d` (file offset `at`) into `l`. */
static void parse_descriptor(const char *path, long long at, const uint8_t *d, uint32_t length, layout_t *l) {
    if (length < 41 || memcmp(d, "BLYD", 4) != 0) fail(path, at, "layout descriptor magic or size invalid");
    if (u16(d + 4) != 1) fail(path, at + 4, "descriptor version %u unknown (this reader knows 1)", u16(d + 4));
    int n = u16(d + 6);
    uint32_t size = u32(d + 8);
    if (n < 1 || size != length) fail(path, at + 6, "descriptor of %d fields and %u bytes in an entry of %u", n, size, length);
    if (u32(d + size - 4) != crc32c(d, size - 4)) fail(path, at + size - 4, "descriptor CRC32C does not match its bytes");
    if (d[28] & ~7) fail(path, at + 28, "descriptor flags 0x%x have unknown bits", d[28]);
    l->start = (int32_t) u32(d + 12);
    l->length = (int32_t) u32(d + 16);
    l->big_endian = d[28] & 4;
    const uint8_t *p = d + 37, *end = d + size - 4;
    char class_name[1025];
    take_string(path, at + (p - d), &p, end, class_name, 1);
    take_string(path, at + (p - d), &p, end, NULL, 0);
    take_string(path, at + (p - d), &p, end, NULL, 0);
    const char *dot = strrchr(class_name, '.');
    strcpy(l->simple, dot ? dot + 1 : class_name);
    l->nfields = n;
    l->fields = calloc((size_t) n, sizeof(field_t));
    if (!l->fields) fail(path, at, "out of memory");
    for (int i = 0; i < n; i++) {
        field_t *f = &l->fields[i];
        take_string(path, at + (p - d), &p, end, f->name, 1);
        take_string(path, at + (p - d), &p, end, NULL, 1);
        if (end - p < 5) fail(path, at + (p - d), "descriptor field runs past its end");
        f->type = p[0];
        f->offset = (int32_t) u32(p + 1);
        if (f->type > 7 || f->offset < 0) fail(path, at + (p - d), "field %s: type code %d, offset %d", f->name, f->type, f->offset);
        if (i > 0 && f->offset < l->fields[i - 1].offset + TYPE_SIZES[l->fields[i - 1].type])
            fail(path, at + (p - d), "field %s overlaps the one before or is out of order", f->name);
        p += 5;
    }
    if (p != end) fail(path, at + (p - d), "descriptor fields do not end at its CRC");
    field_t *last = &l->fields[n - 1];
    if (l->fields[0].offset != l->start || last->offset + TYPE_SIZES[last->type] - l->start != l->length)
        fail(path, at + 12, "descriptor start %d and length %d do not follow from its fields", l->start, l->length);
    if (l->big_endian) fail(path, at + 28, "payloads of a big-endian writer: this reader reads little-endian ones");
}

/* ---- segment files ---- */

typedef struct {
    char path[4096];
    uint64_t first, size;
    uint32_t version;
    int ntypes;
    layout_t types[MAX_TYPES];
    const uint8_t *data;
} segment_t;

static void open_segment(const char *dir, uint64_t first, segment_t *s) {
    snprintf(s->path, sizeof s->path, "%s/segment-%020" PRIu64 ".blitq", dir, first);
    const char *path = s->path;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(path, -1, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) fail(path, -1, "cannot stat: %s", strerror(errno));
    if (st.st_size < RECORDS) fail(path, (long long) st.st_size, "file of %lld bytes is shorter than 8192", (long long) st.st_size);
    void *map = mmap(NULL, (size_t) st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) fail(path, -1, "cannot map: %s", strerror(errno));
    const uint8_t *d = s->data = map;
    if (memcmp(d, "BLITQUE\0", 8) != 0) fail(path, 0, "magic is not a Blit segment file's");
    s->version = u32(d + 8);
    if (s->version < 1) fail(path, 8, "format version %u unknown", s->version);
    if (s->version > 5) fail(path, 8, "format version %u is newer than this reader (it reads 1 to 5)", s->version);
    uint32_t h = u32(d + 12), table = s->version >= 4 ? 80 : 56;
    if (h < table || h > 4092) fail(path, 12, "header length %u outside [%u, 4092]", h, table);
    if (u32(d + h) != crc32c(d, h)) fail(path, h, "header CRC32C does not match the header's bytes");
    uint16_t probe = 1;
    int little = *(uint8_t *) &probe == 1;
    if (s->version >= 4) {
        uint32_t order = u32(d + 56);
        if (order > 2) fail(path, 56, "byte order %u invalid", order);
        if (order == 2 || !little) fail(path, 56, "byte order %u is not this machine's", order);
        uint64_t incompatible = u64(d + 72);
        if (incompatible) {
            int bit = 0;
            while (!(incompatible >> bit & 1)) bit++;
            fail(path, 72, "incompatible feature bit %d unknown to this reader", bit);
        }
    } else if (!little) {
        fail(path, 8, "format 1 to 3 files are little-endian, this machine is not");
    }
    s->size = u64(d + 16);
    s->first = u64(d + 24);
    if (s->size % 4096 || s->size < 12288 || s->size > (1ull << 32)) fail(path, 16, "segment size %" PRIu64 " invalid", s->size);
    if (s->size != (uint64_t) st.st_size)
        fail(path, 16, "header says %" PRIu64 " bytes, the file has %lld (truncated or extended)", s->size, (long long) st.st_size);
    if (s->first != first) fail(path, 24, "first index %" PRIu64 " is not the name's (%" PRIu64 ")", s->first, first);
    s->ntypes = 0;
    if (s->version == 1) {
        uint32_t length = u32(d + 48);
        if (h != 56 + length) fail(path, 48, "descriptor length %u does not end at the header length %u", length, h);
        if (length) { parse_descriptor(path, 56, d + 56, length, &s->types[0]); s->ntypes = 1; }
        return;
    }
    uint32_t count = u32(d + 48), tlen = u32(d + 52), pos = table;
    if (count > MAX_TYPES) fail(path, 48, "type count %u above 128", count);
    if (tlen != h - table) fail(path, 52, "type table length %u, the header length makes it %u", tlen, h - table);
    int64_t previous = -1;
    for (uint32_t i = 0; i < count; i++) {
        if (pos + 8 > h) fail(path, pos, "type table entry runs past the table");
        uint32_t id = u32(d + pos), length = u32(d + pos + 4);
        if (id > 65535 || (int64_t) id <= previous || length < 1 || pos + 8 + length > h)
            fail(path, pos, "type table entry: id %u, descriptor length %u", id, length);
        parse_descriptor(path, pos + 8, d + pos + 8, length, &s->types[i]);
        previous = id;
        pos += 8 + length;
    }
    if (pos != h) fail(path, pos, "%u bytes after the type table's last entry", h - pos);
    s->ntypes = (int) count;
}

/* ---- the queue's files ---- */

typedef struct { const char *dir; uint64_t *firsts; size_t n; } queue_t;

static int by_value(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
    return x < y ? -1 : x > y;
}

static void list_files(queue_t *q) {
    DIR *dir = opendir(q->dir);
    if (!dir) fail(q->dir, -1, "not a queue directory: %s", strerror(errno));
    q->n = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        const char *name = e->d_name;
        if (strlen(name) != 34 || strncmp(name, "segment-", 8) || strcmp(name + 28, ".blitq")) continue;
        int digits = 1;
        for (int i = 8; i < 28; i++) digits &= name[i] >= '0' && name[i] <= '9';
        if (digits && q->n < MAX_FILES) q->firsts[q->n++] = strtoull(name + 8, NULL, 10);
    }
    closedir(dir);
    qsort(q->firsts, q->n, sizeof *q->firsts, by_value);
}

/* The file named for index i: 1 and opened into s; 0 if none exists yet; a later file only is a gap (corrupt). */
static int file_named(queue_t *q, uint64_t i, segment_t *s) {
    list_files(q);
    for (size_t k = 0; k < q->n; k++) {
        if (q->firsts[k] == i) { open_segment(q->dir, i, s); return 1; }
        if (q->firsts[k] > i) fail(q->dir, -1, "the queue continues at index %" PRIu64 ", the next file starts at %" PRIu64, i, q->firsts[k]);
    }
    return 0;
}

/* ---- writer liveness (docs/format.md, "Writer liveness"): probes, never locks ---- */

static int writer_alive(const char *dir, uint32_t version, uint64_t claimer) {
    if (version <= 2) return claimer != 0 && (kill((pid_t) claimer, 0) == 0 || errno == EPERM);
    if (claimer == 0 || claimer > (1u << 22) - 1) return 0;
    char path[4200];
    snprintf(path, sizeof path, "%s/writers.blitw", dir);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? 0 : 1;
    struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 65536 + (off_t) claimer, .l_len = 1};
    int r = fcntl(fd, F_OFD_GETLK, &lock);
    if (r != 0) {
        struct flock classic = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 65536 + (off_t) claimer, .l_len = 1};
        r = fcntl(fd, F_GETLK, &classic);
        lock = classic;
    }
    close(fd);
    return r != 0 || lock.l_type == F_WRLCK; /* cannot probe: alive (the reader waits) */
}

/* ---- printing as dump does ---- */

/* Java's Double.toString/Float.toString: the shortest digits that round-trip, plain in [1e-3, 1e7), else d.dddE±n. */
static void print_java_real(double x, int is_float) {
    if (isnan(x)) { fputs("NaN", stdout); return; }
    if (isinf(x)) { fputs(x > 0 ? "Infinity" : "-Infinity", stdout); return; }
    if (x == 0) { fputs(signbit(x) ? "-0.0" : "0.0", stdout); return; }
    char buf[64];
    for (int precision = 0; precision < 17; precision++) {
        snprintf(buf, sizeof buf, "%.*e", precision, x);
        if (is_float ? strtof(buf, NULL) == (float) x : strtod(buf, NULL) == x) break;
    }
    char digits[32];
    int nd = 0, negative = buf[0] == '-';
    char *p = buf + negative;
    for (; *p && *p != 'e'; p++) if (*p != '.') digits[nd++] = *p;
    int exponent = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    digits[nd] = 0;
    if (negative) putchar('-');
    double magnitude = fabs(x);
    if (magnitude >= 1e-3 && magnitude < 1e7) {
        int point = exponent + 1;
        if (point <= 0) {
            fputs("0.", stdout);
            for (int i = 0; i < -point; i++) putchar('0');
            fputs(digits, stdout);
        } else {
            for (int i = 0; i < point; i++) putchar(i < nd ? digits[i] : '0');
            putchar('.');
            if (nd > point) fputs(digits + point, stdout); else putchar('0');
        }
    } else {
        printf("%c.%sE%d", digits[0], nd > 1 ? digits + 1 : "0", exponent);
    }
}

static void print_field(const field_t *f, const uint8_t *at) {
    int8_t b; uint16_t c; int16_t s; int32_t i; float fl; int64_t l; double d;
    switch (f->type) {
        case 0: fputs(*at ? "true" : "false", stdout); break;
        case 1: memcpy(&b, at, 1); printf("%d", b); break;
        case 2: memcpy(&c, at, 2); printf("%u", c); break;
        case 3: memcpy(&s, at, 2); printf("%d", s); break;
        case 4: memcpy(&i, at, 4); printf("%" PRId32, i); break;
        case 5: memcpy(&fl, at, 4); print_java_real(fl, 1); break;
        case 6: memcpy(&l, at, 8); printf("%" PRId64, l); break;
        default: memcpy(&d, at, 8); print_java_real(d, 0); break;
    }
}

static void print_appended(int64_t nanos) {
    if (nanos == 0) { fputs(" appended=-", stdout); return; }
    int64_t seconds = nanos / 1000000000, fraction = nanos % 1000000000;
    if (fraction < 0) { fraction += 1000000000; seconds--; }
    time_t t = (time_t) seconds;
    struct tm utc;
    gmtime_r(&t, &utc);
    char stamp[64];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc);
    printf(" appended=%s.%09" PRId64 "Z", stamp, fraction);
}

static void print_record(const segment_t *s, uint64_t index, uint64_t pos, int slot, uint32_t length) {
    const uint8_t *body = s->data + pos + 8;
    int64_t nanos = 0;
    if (s->version >= 2) { memcpy(&nanos, body, 8); body += 8; length -= 8; }
    if (s->version >= 5) { /* the CRC32C and the reserved word: the payload is at +24 */
        const uint8_t *record = s->data + pos;
        uint32_t computed = crc32c_more(crc32c(record, 16), record + 20, length - 4);
        if (computed != u32(record + 16))
            fail(s->path, (long long) pos, "(index %" PRIu64 ") record checksum mismatch: the record stores CRC32C "
                 "0x%08x, its bytes give 0x%08x", index, u32(record + 16), computed);
        body += 8; length -= 8;
    }
    printf("index=%" PRIu64, index);
    if (s->ntypes == 0) {
        printf(" length=%u bytes=", length);
        for (uint32_t k = 0; k < length; k++) printf("%02x", body[k]);
    } else {
        const layout_t *l = &s->types[slot];
        if ((int64_t) length != l->length)
            fail(s->path, (long long) pos, "(index %" PRIu64 ") payload of %u bytes, the layout of %s says %d", index, length, l->simple, l->length);
        printf(" type=%s", l->simple);
        for (int k = 0; k < l->nfields; k++) {
            printf(" %s=", l->fields[k].name);
            print_field(&l->fields[k], body + (l->fields[k].offset - l->start));
        }
    }
    print_appended(nanos);
    putchar('\n');
}

static void print_gap(uint64_t from, uint64_t to) { /* indices [from, to) abandoned */
    if (to > from) printf("# indices %" PRIu64 "..%" PRIu64 " abandoned\n", from, to - 1);
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + t.tv_nsec / 1e9;
}

/* ---- the record walk (docs/format.md, "The record walk") ---- */

int main(int argc, char **argv) {
    if (argc != 2) { fputs("error: usage: blit_reader DIR\n", stderr); return 2; }
    queue_t q = {.dir = argv[1], .firsts = malloc(sizeof(uint64_t) * MAX_FILES)};
    if (!q.firsts) fail(argv[1], -1, "out of memory");
    list_files(&q);
    if (q.n == 0) fail(q.dir, -1, "no segment files (segment-<20 digits>.blitq)");
    static segment_t seg;
    open_segment(q.dir, q.firsts[0], &seg);
    uint64_t pos = RECORDS, index = seg.first, expected = seg.first, claim_index = UINT64_MAX;
    double claim_since = 0;
    for (;;) {
        if (pos + 8 > seg.size) {
            if (!file_named(&q, index, &seg)) break;
            pos = RECORDS;
            continue;
        }
        uint64_t w = atomic_load_explicit((_Atomic uint64_t *) (seg.data + pos), memory_order_acquire);
        if (w == 0) break; /* EMPTY: the end, for now */
        if (w >> 61 & 1) {
            int exact = w >> 62 == 2 && (w & 0xFFFFFFFFu) == 0 && (seg.version == 1 || (w >> 54 & 0x7F) == 0);
            if (!exact) fail(seg.path, (long long) pos, "(index %" PRIu64 ") word 0x%016" PRIx64 " has the padding bit but is not a padding word", index, w);
            if (pos == RECORDS) fail(seg.path, (long long) pos, "a padding word as the file's first record");
            if (!file_named(&q, index, &seg)) break;
            pos = RECORDS;
            continue;
        }
        unsigned state = (unsigned) (w >> 62);
        int slot = seg.version == 1 ? 0 : (int) (w >> 54 & 0x7F);
        uint32_t length = (uint32_t) w;
        if (state == 0) fail(seg.path, (long long) pos, "(index %" PRIu64 ") state EMPTY with other bits set", index);
        if (seg.version != 1 && slot >= (seg.ntypes > 1 ? seg.ntypes : 1))
            fail(seg.path, (long long) pos, "(index %" PRIu64 ") type slot %d, the file has %d types", index, slot, seg.ntypes);
        if (length > INT32_MAX) fail(seg.path, (long long) pos, "(index %" PRIu64 ") record length %u above 2^31 - 1", index, length);
        uint64_t n = (8 + (uint64_t) length + 7) & ~(uint64_t) 7;
        if (pos + n > seg.size) fail(seg.path, (long long) pos, "(index %" PRIu64 ") record would end past the file", index);
        if (state == 2) {
            if (length < (seg.version >= 5 ? 16u : seg.version >= 2 ? 8u : 0u))
                fail(seg.path, (long long) pos, "(index %" PRIu64 ") committed record of length %u", index, length);
            print_gap(expected, index);
            print_record(&seg, index, pos, slot, length);
            expected = index + 1;
        } else if (state == 1) { /* CLAIMED: wait; step over a dead writer's claim after the grace */
            if (claim_index != index) { claim_index = index; claim_since = now_seconds(); }
            double watched = now_seconds() - claim_since;
            uint64_t claimer = (w >> 32) & (seg.version == 1 ? 0x1FFFFFFFu : 0x3FFFFFu);
            if (watched < GRACE_SECONDS) { usleep(1000); continue; }
            if (writer_alive(q.dir, seg.version, claimer)) {
                if (watched < GRACE_SECONDS + 1.0) { usleep(1000); continue; }
                printf("# stopped at index %" PRIu64 ": claimed by live writer %" PRIu64 "\n", index, claimer);
                return 1;
            }
            print_gap(expected, index);
            printf("# index %" PRIu64 ": abandoned by a writer that died\n", index);
            expected = index + 1;
        }
        pos += n;
        index++;
    }
    print_gap(expected, index);
    return 0;
}
