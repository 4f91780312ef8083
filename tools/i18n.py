"""Translations for contributors: extract, update, check and compile gputeam's catalogs.

    python tools/i18n.py update    # re-extract locale/gputeam.pot from the files babel.cfg
                                   # lists and merge it into each language's .po
    python tools/i18n.py check     # what is untranslated, fuzzy or has wrong placeholders
    python tools/i18n.py compile   # write the .mo files beside the .po files (optional:
                                   # gputeam compiles the .po files itself on first use)

Then translate the empty msgstr entries of src/gputeam/i18n/locale/<lang>/LC_MESSAGES/gputeam.po
(de, nl, es, ko) and run `check` until it prints nothing; tests/test_i18n.py runs the same
checks. See docs/reports.md ("Languages").
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from gputeam.i18n import LANGUAGES, catalogs  # noqa: E402


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "help"
    if command == "update":
        for line in catalogs.update(ROOT):
            print(line)
        return 0
    if command == "check":
        problems = [p for lang in LANGUAGES[1:] for p in catalogs.check(lang)]
        for problem in problems:
            print(problem)
        return 1 if problems else 0
    if command == "compile":
        from babel.messages.mofile import write_mo

        for lang in LANGUAGES[1:]:
            path = catalogs.po_path(lang)
            with path.with_suffix(".mo").open("wb") as f:
                write_mo(f, catalogs.read(path, lang), use_fuzzy=False)
            print(path.with_suffix(".mo").relative_to(ROOT))
        return 0
    print(__doc__)
    return 0 if command == "help" else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
