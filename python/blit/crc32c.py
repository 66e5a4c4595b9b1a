"""CRC32C (Castagnoli, iSCSI; java.util.zip.CRC32C), table-driven in pure Python: headers and descriptors (a few KiB
per file), and the records of format 5 read one at a time; runs of records are checked with NumPy over the same table
(walk.check_records)."""


def _table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


TABLE = _table()
_TABLE = TABLE


def crc32c(data, crc=0):
    """The CRC32C of ``data`` (bytes-like), continuing ``crc``."""
    c = crc ^ 0xFFFFFFFF
    table = _TABLE
    for b in bytes(data):
        c = table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF
