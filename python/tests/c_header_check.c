/* Reads the first segment file of a mixed queue (produce --type mixed) through the structs of the header that
 * `blit layout --c-header --dir` generated (included as blit_layouts.h), and prints for each committed record
 * "index=I securityId=S askPrice3=P" (MarketData) or "index=I sequence=S askPrice4=P" (BookUpdate), doubles with
 * %.17g. Usage: c_header_check FILE. Test code: checks little beyond what the test needs. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blit_layouts.h"

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) return 2;
    const uint8_t *file = mmap(NULL, (size_t) st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    if (file == MAP_FAILED) return 2;
    uint64_t first;
    memcpy(&first, file + 24, 8);
    for (uint64_t pos = BLIT_RECORDS_START, index = first; pos + 8 <= (uint64_t) st.st_size; index++) {
        uint64_t w = atomic_load_explicit((_Atomic uint64_t *) (file + pos), memory_order_acquire);
        if (w == 0 || BLIT_PADDING(w)) break;
        if (BLIT_STATE(w) == BLIT_STATE_COMMITTED) {
            const uint8_t *payload = file + pos + BLIT_PAYLOAD_OFFSET;
            if (BLIT_TYPE_SLOT(w) == 0) { /* type table slot 0: MarketData, type id 1 */
                const MarketData *md = (const MarketData *) payload;
                printf("index=%llu securityId=%lld askPrice3=%.17g\n", (unsigned long long) index, (long long) md->securityId, md->askPrice3);
            } else {
                const BookUpdate *book = (const BookUpdate *) payload;
                printf("index=%llu sequence=%lld askPrice4=%.17g\n", (unsigned long long) index, (long long) book->sequence, book->askPrice4);
            }
        }
        pos += BLIT_RECORD_BYTES(w);
    }
    return BLIT_MARKETDATA_TYPE_ID == 1 && BLIT_BOOKUPDATE_TYPE_ID == 2 ? 0 : 3;
}
