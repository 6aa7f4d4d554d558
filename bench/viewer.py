"""How fast the viewer serves replay pages, against gunicorn on loopback.

    python bench/viewer.py [--duration 30] [--clients 20] [--workers 2]

Starts gunicorn (127.0.0.1, a free port) on the viewer app plus one bare Flask route
(``/bare``, returning a short text) registered in the same app, then, one after the other,
drives each route with ``--clients`` concurrent HTTP clients (threads in two processes,
http.client, gzip accepted as a browser does) for ``--duration`` seconds in all (three
alternating rounds per route, so both see the same machine), and prints
requests/s, latency percentiles and errors side by side. It also prints the bytes a first visit
to ``/r/<code>`` transfers (gzip) before the charts load (the page, its CSS and script and the
icon), and what the charts then add.

A third row, for reference, renders every request afresh (``?step=<n>`` with a new ``n`` each
time, so the in-memory page cache never hits). Everything stays on loopback; the run is
bounded by ``--duration`` per route (plus 2 s warm-up each and at most 10 s uncached).
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = Path(__file__).resolve().parent
# this file is named viewer.py: keep bench/ off the path so "import viewer" finds the package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != BENCH_DIR]
sys.path.insert(0, str(ROOT))


def bench_app():
    """The viewer app with one bare route beside it (gunicorn calls this)."""
    from viewer.app import create_app

    app = create_app()

    @app.get("/bare")
    def bare():
        return "ok"

    return app


# --- load generation -------------------------------------------------------------------------

def _client(port: int, path: str, stop_at: float, latencies: list[float], errors: list[str]) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Accept-Encoding": "gzip", "User-Agent": "bench/viewer.py"}
    counter = threading.get_ident() % 100000 * 1000
    while time.perf_counter() < stop_at:
        start = time.perf_counter()
        counter += 1
        try:
            conn.request("GET", path.replace("{n}", str(counter)), headers=headers)
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                errors.append(f"status {response.status}")
            if response.will_close:
                conn.close()
        except (OSError, http.client.HTTPException) as exc:
            errors.append(repr(exc))
            conn.close()
            continue
        latencies.append(time.perf_counter() - start)
    conn.close()


def _process(args: tuple[int, str, float, int]) -> tuple[list[float], list[str]]:
    port, path, stop_at_wall, threads = args
    stop_at = time.perf_counter() + max(0.0, stop_at_wall - time.time())
    latencies: list[float] = []
    errors: list[str] = []
    workers = [threading.Thread(target=_client, args=(port, path, stop_at, latencies, errors)) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return latencies, errors


def drive(port: int, path: str, clients: int, duration: float, processes: int = 2) -> dict:
    """``clients`` concurrent clients on ``path`` for ``duration`` seconds: raw latencies."""
    per = [clients // processes + (1 if i < clients % processes else 0) for i in range(processes)]
    stop_at = time.time() + duration
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        started = time.perf_counter()
        parts = pool.map(_process, [(port, path, stop_at, n) for n in per if n])
        elapsed = time.perf_counter() - started
    return {"path": path, "elapsed": elapsed, "latencies": [x for lat, _ in parts for x in lat],
            "errors": [e for _, err in parts for e in err]}


def summary(runs: list[dict]) -> dict:
    """Requests/s and latency percentiles over one or more runs of one route."""
    latencies = sorted(x for r in runs for x in r["latencies"])
    errors = [e for r in runs for e in r["errors"]]
    elapsed = sum(r["elapsed"] for r in runs)

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else float("nan")

    return {"path": runs[0]["path"], "requests": len(latencies), "rps": len(latencies) / elapsed,
            "errors": len(errors), "error_kinds": sorted(set(errors))[:3], "p50": pct(0.50), "p90": pct(0.90),
            "p99": pct(0.99), "max": latencies[-1] * 1000 if latencies else float("nan"),
            "mean": statistics.fmean(latencies) * 1000 if latencies else float("nan")}


# --- first visit -----------------------------------------------------------------------------

def fetch(port: int, path: str) -> tuple[int, int, bytes, dict[str, str]]:
    """(status, bytes on the wire incl. headers, body as received, headers)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
    response = conn.getresponse()
    body = response.read()
    head = len(f"HTTP/1.1 {response.status} {response.reason}\r\n") + sum(
        len(k) + len(v) + 4 for k, v in response.getheaders()) + 2
    headers = {k.lower(): v for k, v in response.getheaders()}
    conn.close()
    return response.status, head + len(body), body, headers


def first_visit(port: int, code: str) -> dict:
    import gzip

    status, page_bytes, body, headers = fetch(port, f"/r/{code}")
    assert status == 200, status
    html = gzip.decompress(body).decode() if headers.get("content-encoding") == "gzip" else body.decode()
    before = re.findall(r'<link rel="(?:stylesheet|icon)" href="([^"]+)"', html)
    before += re.findall(r'<script src="([^"]+)"', html)
    after = re.findall(r'data-(?:script|plotly)="([^"]+)"', html)
    rows = [("page /r/<code>", page_bytes, len(html))]
    for url in before:
        status, wire, _, _ = fetch(port, url)
        assert status == 200, (url, status)
        rows.append((url, wire, None))
    total_before = sum(r[1] for r in rows)
    later = []
    for url in after:
        status, wire, _, _ = fetch(port, url)
        later.append((url, wire))
    return {"rows": rows, "before_charts": total_before, "charts": later, "html_bytes": len(html)}


# --- gunicorn --------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(port: int, workers: int, env: dict[str, str], worker_class: str = "sync") -> subprocess.Popen:
    gunicorn = shutil.which("gunicorn")
    command = [gunicorn] if gunicorn else [sys.executable, "-m", "gunicorn"]
    command += ["--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--worker-class", worker_class,
                "--threads", "4", "--keep-alive", "5", "--backlog", "256", "--log-level", "warning",
                "--chdir", str(ROOT), "bench.viewer:bench_app()"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"gunicorn exited: {process.stderr.read()}")
        try:
            status, *_ = fetch(port, "/bare")
            if status == 200:
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("gunicorn did not start within 30 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds per route (default 30)")
    parser.add_argument("--clients", type=int, default=20, help="concurrent clients (default 20)")
    parser.add_argument("--workers", type=int, default=max(2, os.cpu_count() or 2), help="gunicorn workers")
    parser.add_argument("--worker-class", choices=["sync", "gthread"], default="sync",
                        help="gunicorn worker class (gthread: 4 threads per worker)")
    args = parser.parse_args()
    if not (1 <= args.clients <= 200 and 1 <= args.duration <= 300):
        parser.error("--clients must be 1-200 and --duration 1-300 s")

    from replay.bots import play_game
    from replay.codec import encode

    code = encode(play_game(seed=3))
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "GAME_REPLAY_DB": f"sqlite:///{tmp}/bench.db", "PYTHONPATH": str(ROOT)}
        server = start_gunicorn(port, args.workers, env, args.worker_class)
        try:
            visit = first_visit(port, code)
            drive(port, "/bare", args.clients, 2)  # warm-up, not counted
            drive(port, f"/r/{code}", args.clients, 2)
            # side by side: alternate the two routes in rounds, so drift hits both alike
            rounds = 3
            bare_runs, page_runs = [], []
            for _ in range(rounds):
                bare_runs.append(drive(port, "/bare", args.clients, args.duration / rounds))
                page_runs.append(drive(port, f"/r/{code}", args.clients, args.duration / rounds))
            bare, page = summary(bare_runs), summary(page_runs)
            # for reference: every request a fresh render (a query the page cache has not seen)
            cold = summary([drive(port, f"/r/{code}?step={{n}}", args.clients, min(10.0, args.duration))])
            cold["path"] = "/r/<code>?step=<new> (uncached render)"
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()

    kind = f"{args.worker_class} workers" + (" x 4 threads" if args.worker_class == "gthread" else "")
    print(f"gunicorn on 127.0.0.1, {args.workers} {kind}, {os.cpu_count()} CPUs; "
          f"{args.clients} concurrent clients, {args.duration:.0f} s per route, gzip accepted")
    print(f"{'route':<44} {'req/s':>8} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>7}")
    for r in (bare, page, cold):
        name = r["path"] if len(r["path"]) <= 44 else r["path"][:41] + "..."
        print(f"{name:<44} {r['rps']:>8.0f} {r['p50']:>8.1f} {r['p90']:>8.1f} {r['p99']:>8.1f} {r['max']:>8.1f} "
              f"{r['errors']:>7}")
        if r["error_kinds"]:
            print("   errors:", "; ".join(r["error_kinds"]))
    ratio = page["rps"] / bare["rps"] if bare["rps"] else float("nan")
    print(f"/r/<code> reaches {ratio:.0%} of the bare route's requests/s (target >= 30%); "
          f"p99 {page['p99']:.1f} ms (target <= 100 ms); errors {page['errors']} (target 0)")
    print()
    print("first visit to /r/<code>, bytes on the wire (gzip, headers included):")
    for url, wire, raw in visit["rows"]:
        extra = f"  ({raw} bytes of HTML uncompressed)" if raw else ""
        print(f"  {url:<44} {wire:>9,}{extra}")
    print(f"  {'total before the charts load':<44} {visit['before_charts']:>9,}  "
          f"({visit['before_charts'] / 1024:.1f} KiB; target <= 150 KB)")
    for url, wire in visit["charts"]:
        print(f"  then, for the charts: {url:<22} {wire:>9,}")


if __name__ == "__main__":
    main()
