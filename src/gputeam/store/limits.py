"""How large an imported file may be: the one home of the import limits, used by every door
(the web's guided import and its API, ``gputeam import``), read from the environment
(``GPUTEAM_MAX_UPLOAD_BYTES``, ``GPUTEAM_IMPORT_MAX_ROWS``, ...; see docs/web.md).

A file over a limit is refused with :class:`LimitExceeded` (an
:class:`~gputeam.store.errors.ImportRejected`) naming the limit and the setting that
raises it, before it can hold the server's memory or time: the bytes before anything
reads them; an XLSX workbook's uncompressed size and compression ratio from its zip
directory before it is parsed, and again while it is unzipped (a directory can lie); the
rows, columns and cell lengths while the file is read, stopping at the first one over.
Of the problems an import reports, the first ``import_max_problems`` are listed and the
rest counted.
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from gputeam.errors import InputError, Problem
from gputeam.i18n import N_
from gputeam.store.errors import ImportRejected

MB = 1024 * 1024


class TableLimits(BaseSettings):
    """The import limits; each field is read from ``GPUTEAM_<NAME>`` when not given."""

    model_config = SettingsConfigDict(env_prefix="GPUTEAM_", extra="ignore", frozen=True)

    max_upload_bytes: int = Field(
        default=50 * MB, ge=1, description="The largest file an import reads (CSV or XLSX), in bytes."
    )
    import_max_uncompressed_bytes: int = Field(
        default=256 * MB,
        ge=1,
        description="The most an XLSX workbook may unzip to, all its parts together, in bytes.",
    )
    import_max_compression_ratio: int = Field(
        default=100,
        ge=1,
        description="The most any part of an XLSX workbook larger than 1 MB unzipped may "
        "expand by (spreadsheets compress about 10:1; a zip bomb 1000:1).",
    )
    import_max_rows: int = Field(default=250_000, ge=1, description="The most rows an import reads.")
    import_max_columns: int = Field(default=1_000, ge=1, description="The most columns a row may have.")
    import_max_cell_chars: int = Field(
        default=32_767, ge=1, description="The longest cell, in characters (Excel's own limit)."
    )
    import_max_problems: int = Field(
        default=1_000,
        ge=1,
        description="The most problems an import lists; the others are counted.",
    )


class LimitSettingsError(InputError):
    kind = "settings"


def from_environment() -> TableLimits:
    """The limits the environment sets (the defaults where it sets none); a value that is
    not a whole number of at least 1 is refused naming its variable, never a traceback."""
    from pydantic import ValidationError

    try:
        return TableLimits()
    except ValidationError as exc:
        raise LimitSettingsError(
            [
                Problem(
                    path=setting_name("_".join(str(p) for p in e["loc"])),
                    message=e["msg"],
                    found=repr(e.get("input")),
                    expected=N_("a whole number of at least 1"),
                )
                for e in exc.errors()
            ]
        ) from None


#: the ratio a small part of a workbook may exceed (a tiny file compresses arbitrarily well)
RATIO_FREE_BYTES = MB

#: the unit each limit counts in
_UNIT = {
    "max_upload_bytes": N_("bytes"),
    "import_max_uncompressed_bytes": N_("bytes"),
    "import_max_compression_ratio": N_("times its compressed size"),
    "import_max_rows": N_("rows"),
    "import_max_columns": N_("columns"),
    "import_max_cell_chars": N_("characters"),
}


def setting_name(limit: str) -> str:
    """The environment variable of a limit: ``GPUTEAM_IMPORT_MAX_ROWS``."""
    return "GPUTEAM_" + limit.upper()


class LimitExceeded(ImportRejected):
    """A file over one of :class:`TableLimits`: ``limit`` names the field, ``status`` the
    HTTP answer (413 when the file is too large, 422 for a cell too long)."""

    def __init__(self, problems: list[Problem], limit: str, value: int, status: int) -> None:
        super().__init__(problems)
        self.limit = limit
        self.value = value
        self.status = status

    @property
    def setting(self) -> str:
        return setting_name(self.limit)


def exceeded(
    limit: str,
    value: int,
    found: str,
    *,
    file: str | None = None,
    line: int | None = None,
    path: str | None = None,
    status: int = 413,
) -> LimitExceeded:
    """The refusal of a file over ``limit`` (a :class:`TableLimits` field) of ``value``;
    ``path`` is the column for a cell, else the setting's name."""
    setting = setting_name(limit)
    return LimitExceeded(
        [
            Problem(
                path=path or setting,
                message=N_("over the import limit of {limit} {unit} ({setting})").format(
                    limit=f"{value:,}", unit=_UNIT[limit], setting=setting
                ),
                found=found,
                expected=N_("at most {limit} {unit}; split the file, or raise {setting}").format(
                    limit=f"{value:,}", unit=_UNIT[limit], setting=setting
                ),
                file=file,
                line=line,
            )
        ],
        limit,
        value,
        status,
    )
