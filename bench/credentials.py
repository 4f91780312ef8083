"""Credential speed: issue and verify 1,000 Open Badges 3.0 credentials (eddsa-rdfc-2022).

Each credential is shaped as the tracker issues it: the Achievement of a catalog
certification (NCP-AIO, four skill domains) with its alignments (skill
domains, O*NET and ISCO-08 occupations, ESCO skills), per-domain results, evidence and a
Bitstring Status List entry; verification checks it against a signed status list, as the
share page does. Prints the median and p95 time per credential to issue (build +
canonicalise + sign) and to verify (every check), and, as a baseline run in the same
process, Ed25519 over the same JSON bytes without canonicalisation, so the share of RDFC-1.0
canonicalisation shows.
Targets (issue 12): issue <= 20 ms and verify <= 20 ms median on this machine.

    python bench/credentials.py [N]
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from datetime import UTC, datetime


def main() -> int:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from gputeam.catalog import load_catalog
    from gputeam.credentials import credential, did_key, issue, sign, statuslist, verification_method, verify
    from gputeam.store.credentials import STATUS_LIST_BITS, achievement_for, status_list_url

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    did = did_key(key)
    base = "https://tracker.acme.example"
    catalog = load_catalog()
    domains = [g.domain for g in catalog.certifications["ncp-aio"].grants]
    ach = achievement_for(
        catalog,
        "ncp-aio",
        base,
        results={f"domain-{d}": f"{d} score" for d in domains} | {"exam": "Exam score"},
    )
    now = datetime(2026, 12, 2, tzinfo=UTC)
    list_url = status_list_url(base, 1)
    status_list = sign(
        statuslist.list_credential(list_url, did, statuslist.empty(STATUS_LIST_BITS), "2026-12-01T00:00:00Z"),
        key,
        verification_method(did, key),
        "2026-12-01T00:00:00Z",
    )
    issue_t, verify_t, base_t, creds = [], [], [], []
    for i in range(n):
        t0 = time.perf_counter()
        c = issue(
            credential(
                credential_id=f"urn:uuid:bench-{i}",
                issuer_id=did,
                issuer_name="ACME",
                subject_id=f"mailto:p{i}@acme.example",
                achievement=ach,
                valid_from="2026-12-01T00:00:00Z",
                valid_until="2028-12-01T00:00:00Z",
                results={rid: f"{50 + (i + j) % 50} %" for j, rid in enumerate(ach.results)},
                status=statuslist.status_entry(list_url, i),
                evidence=[{"id": f"{base}/credentials/bench-{i}", "type": ["Evidence"], "name": "held"}],
            ),
            key,
            "2026-12-01T00:00:00Z",
        )
        issue_t.append(time.perf_counter() - t0)
        creds.append(c)
    for c in creds:
        t0 = time.perf_counter()
        ok = verify(c, now=now, status_list=status_list).valid
        verify_t.append(time.perf_counter() - t0)
        assert ok
        t0 = time.perf_counter()
        key.public_key().verify(key.sign(json.dumps(c).encode()), json.dumps(c).encode())
        base_t.append(time.perf_counter() - t0)

    def row(name: str, xs: list[float]) -> str:
        xs = sorted(xs)
        return (
            f"{name:<34} median {statistics.median(xs) * 1000:7.2f} ms   "
            f"p95 {xs[int(len(xs) * 0.95) - 1] * 1000:7.2f} ms"
        )

    print(f"{n} credentials")
    print(row("issue (build, canonicalise, sign)", issue_t))
    print(row("verify (all checks, status list)", verify_t))
    print(row("baseline: Ed25519 over raw JSON", base_t))
    print(
        f"verify / baseline: {statistics.median(verify_t) / statistics.median(base_t):.0f}x "
        "(the difference is canonicalisation)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
