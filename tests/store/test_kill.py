"""A process killed (SIGKILL) in the middle of an import loses nothing committed and leaves
nothing partial: the import is one transaction."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from sqlalchemy import text

from gputeam.store import Database, export_data, get_person_by_key, list_people

from .test_import import CERTS, ROSTER

CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from sqlalchemy import event
    from gputeam.store import (open_database, get_or_create_organisation, import_roster,
                               import_certifications)

    url, roster, certs, big = sys.argv[1:5]
    db = open_database(url)
    with db.session() as s:
        org = get_or_create_organisation(s, "Acme").id
        import_roster(s, org, Path(roster))
        import_certifications(s, org, Path(certs))
    print("COMMITTED", flush=True)

    @event.listens_for(db.engine, "after_cursor_execute")
    def stall(conn, cursor, statement, *args):
        # the new team and 2,000 new people are written in the open transaction by now
        if statement.lstrip().upper().startswith("UPDATE PEOPLE"):
            print("MID-IMPORT", flush=True)
            time.sleep(120)

    with db.session() as s:
        import_roster(s, org, Path(big))
    print("FINISHED", flush=True)
""")


def test_sigkill_mid_import(db: Database, org_id: int, tmp_path: Path) -> None:
    (tmp_path / "roster.csv").write_text(ROSTER)
    (tmp_path / "certs.csv").write_text(CERTS)
    rows = ["id,name,level,team,linux"] + [f"n{i},New {i},2,Night,3" for i in range(2000)]
    rows.append("p1,Ana Renamed,5,Night,4")  # an update that must not survive either
    (tmp_path / "big.csv").write_text("\n".join(rows) + "\n")
    with db.session() as s:
        org_name = export_data(s, org_id)["organisation"]["name"]
    assert org_name == "Acme"
    url = db.engine.url.render_as_string(hide_password=False)
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            CHILD,
            url,
            str(tmp_path / "roster.csv"),
            str(tmp_path / "certs.csv"),
            str(tmp_path / "big.csv"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        lines = [child.stdout.readline().strip(), child.stdout.readline().strip()]
        assert lines == ["COMMITTED", "MID-IMPORT"], child.stderr.read() if child.stderr else ""
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(timeout=30) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    db.dispose()  # fresh connections see the database as the next process would
    with db.session() as s:
        people = list_people(s, org_id)
        assert sorted(p.key for p in people) == ["p1", "p2", "p3"]
        p1 = get_person_by_key(s, org_id, "p1")
        assert p1 is not None and p1.name == "Ana Lima" and p1.level == 3
        data = export_data(s, org_id)
        assert len(data["tables"]["certifications"]) == 3
        assert [t["name"] for t in data["tables"]["teams"]] == ["Fabric", "Ops"]
        if db.dialect == "sqlite":
            assert s.execute(text("PRAGMA integrity_check")).scalar() == "ok"
