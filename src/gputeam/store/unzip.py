"""Unzipping an XLSX workbook within the import limits (:mod:`gputeam.store.limits`).

:func:`check_zip` reads the zip's central directory (no part is unzipped) and refuses a
workbook whose parts together unzip to more than ``import_max_uncompressed_bytes``, or
with a part over 1 MB that expands more than ``import_max_compression_ratio`` times.
The directory is written by whoever made the file and can lie, so :class:`BoundedZip`,
the archive the workbook is then read from, counts what each part really unzips to as it
is read and stops at the same limits.
"""

from __future__ import annotations

import io
import zipfile
from typing import IO, Any

from gputeam.store.limits import RATIO_FREE_BYTES, LimitExceeded, TableLimits, exceeded


def check_zip(data: bytes, name: str, limits: TableLimits) -> None:
    """Refuse (:class:`~gputeam.store.limits.LimitExceeded`) a workbook whose zip directory
    says it unzips to more than the limits allow; nothing is unzipped."""
    try:
        infos = zipfile.ZipFile(io.BytesIO(data)).infolist()
    except zipfile.BadZipFile:
        return  # not a zip: the reader says so
    total = sum(i.file_size for i in infos)
    if total > limits.import_max_uncompressed_bytes:
        raise exceeded(
            "import_max_uncompressed_bytes", limits.import_max_uncompressed_bytes, f"{total:,}", file=name
        )
    for info in infos:
        _check_ratio(info.file_size, info, name, limits)


def _check_ratio(size: int, info: zipfile.ZipInfo, name: str, limits: TableLimits) -> None:
    ratio = limits.import_max_compression_ratio
    if size > RATIO_FREE_BYTES and size > ratio * max(info.compress_size, 1):
        raise exceeded(
            "import_max_compression_ratio",
            ratio,
            f"{size // max(info.compress_size, 1):,}:1 ({info.filename})",
            file=name,
        )


class BoundedZip(zipfile.ZipFile):
    """A zip archive (read only) whose parts stop unzipping once the workbook has given
    ``import_max_uncompressed_bytes`` in all, or a part over 1 MB has expanded more than
    ``import_max_compression_ratio`` times its compressed size."""

    def __init__(self, file: IO[bytes], name: str, limits: TableLimits) -> None:
        super().__init__(file, "r")
        self.name = name
        self.limits = limits
        self.unzipped = 0

    def open(self, name: Any, mode: Any = "r", pwd: Any = None, *, force_zip64: bool = False) -> Any:
        inner = super().open(name, mode, pwd, force_zip64=force_zip64)
        if mode != "r":
            return inner
        return _Counted(inner, self, name if isinstance(name, zipfile.ZipInfo) else self.getinfo(name))

    def count(self, info: zipfile.ZipInfo, part: int, n: int) -> None:
        self.unzipped += n
        limits = self.limits
        if self.unzipped > limits.import_max_uncompressed_bytes:
            raise exceeded(
                "import_max_uncompressed_bytes",
                limits.import_max_uncompressed_bytes,
                f"> {limits.import_max_uncompressed_bytes:,}",
                file=self.name,
            )
        _check_ratio(part, info, self.name, limits)


class _Counted(io.RawIOBase):
    """A part of a :class:`BoundedZip` being unzipped, counted as it is read."""

    def __init__(self, inner: Any, archive: BoundedZip, info: zipfile.ZipInfo) -> None:
        super().__init__()
        self.inner = inner
        self.archive = archive
        self.info = info
        self.part = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:  # all of it, a chunk at a time: counted before kept
            chunks = []
            while chunk := self.read(1024 * 1024):
                chunks.append(chunk)
            return b"".join(chunks)
        data: bytes = self.inner.read(size)
        self.part += len(data)
        self.archive.count(self.info, self.part, len(data))
        return data

    def close(self) -> None:
        self.inner.close()
        super().close()


__all__ = ["BoundedZip", "LimitExceeded", "check_zip"]
