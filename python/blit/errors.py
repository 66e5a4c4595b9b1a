"""The reader's errors: one family, each naming the file (and the byte offset where one means something)."""


class BlitError(Exception):
    """Base of every error this package raises about a queue's files."""


class CorruptFileError(BlitError):
    """A file is not what docs/format.md allows: damaged, truncated, or not a Blit file."""

    def __init__(self, path, offset, what):
        self.path, self.offset, self.what = str(path), offset, what
        at = "" if offset is None else f" at byte {offset}"
        super().__init__(f"{path}{at}: {what}")


class UnsupportedFormatError(BlitError):
    """A file this reader must refuse without calling it damaged: a newer version, an unknown incompatible feature,
    another byte order."""

    def __init__(self, path, offset, what):
        self.path, self.offset, self.what = str(path), offset, what
        at = "" if offset is None else f" at byte {offset}"
        super().__init__(f"{path}{at}: {what}")
