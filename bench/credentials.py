"""Credential speed: issue and verify 1,000 Open Badges 3.0 credentials (eddsa-rdfc-2022).

Prints the median and p95 time per credential to issue (build + canonicalise + sign) and to
verify (every check), and, as a baseline run in the same process, Ed25519 over the same
JSON bytes without canonicalisation, so the share of RDFC-1.0 canonicalisation shows.
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

    from gputeam.credentials import AchievementSpec, credential, did_key, issue, verify

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    did = did_key(key)
    ach = AchievementSpec(
        id="https://acme.example/achievements/op-l2",
        name="ACME GPU Cluster Operator, Level 2",
        description="Operates clusters.",
        criteria="Exam and practical.",
        results={"infiniband": "InfiniBand score"},
    )
    now = datetime(2026, 12, 2, tzinfo=UTC)
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
                results={"infiniband": str(50 + i % 50)},
            ),
            key,
            "2026-12-01T00:00:00Z",
        )
        issue_t.append(time.perf_counter() - t0)
        creds.append(c)
    for c in creds:
        t0 = time.perf_counter()
        ok = verify(c, now=now).valid
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
    print(row("verify (all checks)", verify_t))
    print(row("baseline: Ed25519 over raw JSON", base_t))
    print(
        f"verify / baseline: {statistics.median(verify_t) / statistics.median(base_t):.0f}x "
        "(the difference is canonicalisation)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
