"""Amplification: how many bytes a page, an embed and a JSON twin are for the bytes a reader gave.

    python bench/amplification.py            # this checkout
    PYTHONPATH=/path/to/old/checkout python /path/to/old/checkout/bench/amplification.py

For each worst case of issue 24 (built by ``tests/viewer/test_amplification.py``: party codes of
20,000 joins and of a table of long cards, a UNO Lite code of 5,000 turns, a Coup code of
20,000 actions, and a 100 KB upload: the first of those logs cut to its first 3,000 events, a
party lobby of 3,000 joins) and one bot-played game of each game, it prints the
input's size (the code's length, the upload's bytes), each answer's status, size (uncompressed)
and time, and the ratio of the two sizes. The test's bound is 50 times the input plus 512 KiB.
It runs the app in this process (Flask's test client), one request at a time.
"""

from __future__ import annotations

import io
import json
import os
import resource
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from replay.codec import encode  # noqa: E402
from replay.games import game_for_format  # noqa: E402
from replay.log import parse_log, read_path  # noqa: E402
from tests.viewer.test_amplification import (  # noqa: E402
    ALLOWANCE, HOSTILE_CODES, RATIO, SAMPLES, body_size,
)
from viewer.app import create_app  # noqa: E402

#: the upload: the first hostile log cut to this many events (about 100 KB of JSON)
UPLOAD_EVENTS = 3_000


def measure(client, label: str, own: int, paths: list[tuple[str, str]]) -> None:
    for kind, path in paths:
        started = time.perf_counter()
        response = client.get(path)
        seconds = time.perf_counter() - started
        size = body_size(response)
        within = "ok" if size <= RATIO * own + ALLOWANCE else "OVER"
        print(f"{label:34} {own:>9,} {kind:6} {response.status_code:>4} {size:>14,} {size / own:>10,.1f}x "
              f"{seconds:>7.2f}s  {within}", flush=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "DB": f"sqlite:///{folder}/bench.db",
                          "UPLOAD_RATE_PER_MINUTE": 6000, "UPLOAD_RATE_BURST": 1000})
        client = app.test_client()
        print(f"{'case':34} {'input B':>9} {'answer':6} {'HTTP':>4} {'bytes':>14} {'ratio':>11} {'time':>8}")
        for name, build in [*((f"code: {n}", b) for n, b in HOSTILE_CODES.items())]:
            code = encode(parse_log(build()))
            measure(client, name, len(code), [("page", f"/r/{code}"), ("embed", f"/embed/r/{code}"),
                                               ("json", f"/r/{code}.json")])
        upload = next(iter(HOSTILE_CODES.values()))()
        upload["events"] = upload["events"][:UPLOAD_EVENTS]
        raw = json.dumps(upload).encode()
        answer = client.post("/api/logs", data={"files": [(io.BytesIO(raw), "lobby.json")]},
                             content_type="multipart/form-data").get_json()
        url = answer["files"][0]["games"][0]["url"]
        label = f"upload: {game_for_format(upload['format']).title}, {UPLOAD_EVENTS:,} events"
        measure(client, label, len(raw), [("page", url), ("embed", "/embed" + url), ("json", url + ".json")])
        for game, path in SAMPLES.items():
            code = encode(read_path(str(path))[0].log)
            measure(client, f"sample: {game}", len(code), [("page", f"/r/{code}"), ("json", f"/r/{code}.json")])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of this process: {peak:,.0f} MB")


if __name__ == "__main__":
    main()
