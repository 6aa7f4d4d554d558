"""How fast the viewer serves replay pages, against gunicorn on loopback; and, with
``--browser``, how soon a replay page answers in Chromium.

    python bench/viewer.py [--duration 30] [--clients 20] [--workers 2]
    python bench/viewer.py --browser [--rounds 3]

``--browser`` drives Debian's Chromium (/usr/bin/chromium) with Playwright over its DevTools
protocol, on a desktop profile (1366 x 900) and a phone profile (375 x 812, touch, CPU slowed
4x with ``Emulation.setCPUThrottlingRate``). For the first registered game's code page (/r/<code>)
and the second's archived page (/g/<id>) (floating bridge and UNO Lite today; each game's
``selfplay(3)``) it measures the time from navigation until the board answers a key (→ pressed every
few ms until the step moves), the slowest key answered in the seconds after that while the page
scrolls to its charts (so charts that load when seen do so), and the longest main-thread task
(a ``longtask`` PerformanceObserver, buffered from the start). Beside them, the same figures for
bare pages that load only a chart library: plotly.js as the package ships it (what replay pages
loaded before) and the basic partial bundle (what a board that gives plotly figures gets now).
Medians over ``--rounds`` rounds; the machine's load average is printed before and after.

Without ``--browser``: plays one seeded self-play game of every registered game
(``replay.games.names()``: floating bridge, UNO Lite, Coup, party cards; each game's
``selfplay(3)`` with its default bots, normal games whose pages show whole) and stores the four
in a fresh SQLite archive, starts gunicorn (127.0.0.1, a free port) on the viewer app plus one
bare Flask route (``/bare``, returning a short text) registered in the same app, then, one after
the other, drives the bare route and each game's code page ``/r/<code>`` and archived page
``/g/<id>`` with ``--clients`` concurrent HTTP clients (threads in two processes, http.client,
gzip accepted as a browser does) for ``--duration`` seconds each in all (three rounds, each
round driving every route in turn, so all see the same machine), and prints requests/s,
latency percentiles and errors side by side, with each page's requests/s as a share of the bare
route's in the same run and the machine's load average before and after. It also prints, for
each game, the bytes a first visit to its ``/r/<code>`` transfers (gzip) before the charts load
(the page, its CSS and script and the icon), and what the charts then add.

Further rows, for reference, render every request afresh (each game's ``/r/<code>?step=<n>``
with a new ``n`` each time, so the in-memory page cache never hits). Everything stays on
loopback; the run is bounded by ``--duration`` per route (plus 2 s warm-up each and at most
10 s uncached per game).
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import logging
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

from archive import Archive  # noqa: E402
from replay.codec import encode  # noqa: E402
from replay.games import get, names  # noqa: E402
from viewer.app import create_app, get_archive  # noqa: E402


#: the seed of every game's self-play game (bridge's seed 3 is the game this bench always timed)
GAME_SEED = 3


def bench_app():
    """The viewer app with one bare route beside it (gunicorn calls this)."""
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


def start_gunicorn(port: int, workers: int, env: dict[str, str], worker_class: str = "sync",
                   app_spec: str = "bench.viewer:bench_app()") -> subprocess.Popen:
    gunicorn = shutil.which("gunicorn")
    command = [gunicorn] if gunicorn else [sys.executable, "-m", "gunicorn"]
    command += ["--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--worker-class", worker_class,
                "--threads", "4", "--keep-alive", "5", "--backlog", "256", "--log-level", "warning",
                "--chdir", str(ROOT), app_spec]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"gunicorn exited: {process.stderr.read()}")
        try:
            status, *_ = fetch(port, "/bare" if "bench_app" in app_spec else "/bare-plotly")
            if status == 200:
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("gunicorn did not start within 30 s")


# --- in the browser ---------------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"
LONG_TASKS = ("window.__longTasks = []; window.__keys = [];"
              "window.addEventListener('keydown', function () { window.__keys.push(performance.now()); }, true);"
              "new PerformanceObserver(function (list) { list.getEntries().forEach(function (e) {"
              " window.__longTasks.push(e.duration); }); }).observe({type: 'longtask', buffered: true});")
PROFILES = {
    "desktop": {"viewport": {"width": 1366, "height": 900}, "cpu": 1, "mobile": False, "watch": 3.0},
    "phone": {"viewport": {"width": 375, "height": 812}, "cpu": 4, "mobile": True, "watch": 6.0},
}


def browser_app(db: str | None = None):
    """The viewer with two bare pages that load only a chart library (no CSP trouble: same origin).
    gunicorn calls this with the archive in ``GAME_REPLAY_DB``."""
    app = create_app({"DB": db} if db else None)
    assets = app.extensions["assets"]

    def bare(name: str) -> str:
        return (f'<!doctype html><meta charset="utf-8"><title>bare</title><p id="ready">loading</p>'
                f'<script src="{assets.url(name)}" async></script>')

    @app.get("/bare-plotly")
    def bare_plotly():
        return bare("plotly.min.js")

    @app.get("/bare-plotly-basic")
    def bare_basic():
        return bare("plotly-basic.min.js")

    return app


def _new_page(browser, profile: dict):
    context = browser.new_context(viewport=profile["viewport"], is_mobile=profile["mobile"],
                                  has_touch=profile["mobile"], device_scale_factor=2 if profile["mobile"] else 1)
    page = context.new_page()
    page.add_init_script(LONG_TASKS)
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": profile["cpu"]})
    return context, page


def measure_page(browser, url: str, profile: dict) -> dict:
    """Navigation to the board answering a key; the slowest key after that; the longest task."""
    context, page = _new_page(browser, profile)
    try:
        started = time.perf_counter()
        page.goto(url, wait_until="commit")
        answered = None
        while time.perf_counter() - started < 60:
            page.keyboard.press("ArrowRight")
            step = page.evaluate("document.documentElement.classList.contains('js-ready')"
                                 " ? document.getElementById('step-no').textContent : null")
            if step not in (None, "0"):
                # page time of the key that moved the board (from the start of navigation)
                answered = page.evaluate("window.__keys[window.__keys.length - 1]") / 1000
                break
            time.sleep(0.005)
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # charts come into view
        slowest = 0.0
        watch_until = time.perf_counter() + profile["watch"]
        while time.perf_counter() < watch_until:
            t = time.perf_counter()
            page.keyboard.press("ArrowRight" if int(page.evaluate("document.getElementById('step-no').textContent")) < 5 else "Home")
            slowest = max(slowest, time.perf_counter() - t)
            time.sleep(0.05)
        tasks = page.evaluate("window.__longTasks")
        first_byte = page.evaluate("performance.getEntriesByType('navigation')[0].responseStart") / 1000
        return {"answer": answered, "first_byte": first_byte, "slowest_key": slowest,
                "longest_task": max(tasks or [0.0]) / 1000, "long_tasks": len(tasks or [])}
    finally:
        context.close()


def measure_bare(browser, url: str, profile: dict) -> dict:
    """A page with nothing but the chart library: until it has run, and the longest task."""
    context, page = _new_page(browser, profile)
    try:
        page.goto(url, wait_until="commit")
        ready = None
        deadline = time.perf_counter() + 60
        while ready is None and time.perf_counter() < deadline:  # (the page's CSP forbids wait_for_function)
            ready = page.evaluate("typeof window.Plotly !== 'undefined' ? performance.now() : null")
            time.sleep(0.005)
        ready = None if ready is None else ready / 1000
        page.wait_for_timeout(300)
        tasks = page.evaluate("window.__longTasks")
        first_byte = page.evaluate("performance.getEntriesByType('navigation')[0].responseStart") / 1000
        return {"answer": ready, "first_byte": first_byte, "slowest_key": None,
                "longest_task": max(tasks or [0.0]) / 1000, "long_tasks": len(tasks or [])}
    finally:
        context.close()


def browser_main(rounds: int) -> None:
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{tmp}/bench.db"
        app = browser_app(db)
        # the first registered game's code page and the second's archived page (or the first's
        # when it is alone), each game's self-play game of GAME_SEED with its default bots
        coded, archived = (get(name) for name in (names() * 2)[:2])
        with app.app_context():
            stored = get_archive().ingest_bytes(archived.selfplay(GAME_SEED).canonical_json().encode(),
                                                f"{archived.name}.json")[0]
        # the server runs in its own processes (gunicorn, 2 workers), as in production, so the
        # browser driver here does not slow it down
        port = free_port()
        env = {**os.environ, "GAME_REPLAY_DB": db, "PYTHONPATH": str(ROOT)}
        server = start_gunicorn(port, 2, env, app_spec="bench.viewer:browser_app()")
        base = f"http://127.0.0.1:{port}"
        pages = {
            f"{coded.title} /r/<code>": f"{base}/r/{encode(coded.selfplay(GAME_SEED))}",
            f"{archived.title} /g/<id>": f"{base}/g/{stored.public_id}",
            "bare: plotly.min.js (4.8 MB)": f"{base}/bare-plotly",
            "bare: plotly-basic.min.js (1.2 MB)": f"{base}/bare-plotly-basic",
        }
        results: dict[tuple[str, str], list[dict]] = {}
        try:
            logging.getLogger("werkzeug").setLevel(logging.ERROR)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
                for url in pages.values():  # warm both workers' page caches: the browser is measured
                    for _ in range(4):
                        warm, warm_page = _new_page(browser, PROFILES["desktop"])
                        warm_page.goto(url)
                        warm.close()
                for _ in range(rounds):  # rounds alternate every page and profile: drift hits all alike
                    for profile_name, profile in PROFILES.items():
                        for name, url in pages.items():
                            measure = measure_bare if name.startswith("bare") else measure_page
                            results.setdefault((profile_name, name), []).append(measure(browser, url, profile))
                browser.close()
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
    load_after = os.getloadavg()

    def median(runs: list[dict], key: str) -> float | None:
        values = [r[key] for r in runs if r[key] is not None]
        return statistics.median(values) if values else None

    def ms(value: float | None) -> str:
        return "—" if value is None else f"{value * 1000:.0f}"

    print(f"Chromium ({CHROMIUM}) through Playwright/CDP; {os.cpu_count()} CPUs; load average "
          f"{load_before[0]:.2f} before, {load_after[0]:.2f} after; medians of {rounds} rounds")
    print("answers a key: from the start of navigation (page time) to the key that moved the board; for the")
    print("bare pages, until plotly.js has run. first byte: when the HTML began to arrive.")
    print(f"{'profile':<8} {'page':<36} {'first byte':>10} {'answers a key ms':>17} {'slowest key ms':>15} {'longest task ms':>16} {'long tasks':>11}")
    summary_rows = {}
    for (profile_name, name), runs in results.items():
        row = {k: median(runs, k) for k in ("first_byte", "answer", "slowest_key", "longest_task", "long_tasks")}
        summary_rows[(profile_name, name)] = row
        print(f"{profile_name:<8} {name:<36} {ms(row['first_byte']):>10} {ms(row['answer']):>17} {ms(row['slowest_key']):>15} "
              f"{ms(row['longest_task']):>16} {row['long_tasks'] or 0:>11.0f}")
    desktop = max(summary_rows[("desktop", n)]["longest_task"] for n in pages if not n.startswith("bare"))
    phone = max(summary_rows[("phone", n)]["answer"] or 99 for n in pages if not n.startswith("bare"))
    print(f"targets: longest task on desktop <= 200 ms: {desktop * 1000:.0f} ms; "
          f"board answers a key on the phone profile within 1 s: {phone * 1000:.0f} ms")
    if "--json" in sys.argv[1:]:
        print(json.dumps({f"{p}|{n}": r for (p, n), r in summary_rows.items()}))


def main() -> None:
    if "--browser" in sys.argv[1:]:
        browser_parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
        browser_parser.add_argument("--browser", action="store_true")
        browser_parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3); medians are printed")
        browser_parser.add_argument("--json", action="store_true", help="also print the medians as JSON")
        browser_args = browser_parser.parse_args()
        if not 1 <= browser_args.rounds <= 20:
            browser_parser.error("--rounds must be 1-20")
        browser_main(browser_args.rounds)
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--browser", action="store_true", help="measure pages in Chromium instead (see above)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds per route (default 30)")
    parser.add_argument("--clients", type=int, default=20, help="concurrent clients (default 20)")
    parser.add_argument("--workers", type=int, default=max(2, os.cpu_count() or 2), help="gunicorn workers")
    parser.add_argument("--worker-class", choices=["sync", "gthread"], default="sync",
                        help="gunicorn worker class (gthread: 4 threads per worker)")
    args = parser.parse_args()
    if not (1 <= args.clients <= 200 and 1 <= args.duration <= 300):
        parser.error("--clients must be 1-200 and --duration 1-300 s")

    # one normal game of every registered game, found through the registry alone
    games = []
    for name in names():
        log = get(name).selfplay(GAME_SEED)
        games.append({"name": name, "title": get(name).title, "log": log, "code": encode(log)})
    port = free_port()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{tmp}/bench.db"
        archive = Archive(db)
        for game in games:
            stored = archive.ingest_bytes(game["log"].canonical_json().encode(), f"{game['name']}.json")[0]
            if not stored.public_id:
                raise SystemExit(f"{game['name']}: the archive did not store the game ({stored.status}: {stored.error})")
            game["id"] = stored.public_id
        archive.close()
        env = {**os.environ, "GAME_REPLAY_DB": db, "PYTHONPATH": str(ROOT)}
        server = start_gunicorn(port, args.workers, env, args.worker_class)
        try:
            # every page must show whole (200): a 413 "too large to show here" is no page to time
            for game in games:
                for path in (f"/r/{game['code']}", f"/g/{game['id']}"):
                    status, *_ = fetch(port, path)
                    if status != 200:
                        raise SystemExit(f"{game['name']}: {path[:60]} answered {status}, not 200")
            visits = [(game, first_visit(port, game["code"])) for game in games]
            routes = [("/bare", "/bare")]
            for game in games:
                routes.append((f"{game['name']} /r/<code>", f"/r/{game['code']}"))
                routes.append((f"{game['name']} /g/<id>", f"/g/{game['id']}"))
            for _, path in routes:  # warm-up, not counted (every worker's page cache)
                drive(port, path, args.clients, 2)
            # side by side: every route in turn, in rounds, so drift hits all alike
            rounds = 3
            runs: dict[str, list[dict]] = {label: [] for label, _ in routes}
            for _ in range(rounds):
                for label, path in routes:
                    runs[label].append(drive(port, path, args.clients, args.duration / rounds))
            results = []
            for label, _ in routes:
                r = summary(runs[label])
                r["path"] = label
                results.append(r)
            # for reference: every request a fresh render (a query the page cache has not seen)
            cold = []
            for game in games:
                r = summary([drive(port, f"/r/{game['code']}?step={{n}}", args.clients, min(10.0, args.duration))])
                r["path"] = f"{game['name']} /r/<code>?step=<new> (uncached)"
                cold.append(r)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
    load_after = os.getloadavg()

    kind = f"{args.worker_class} workers" + (" x 4 threads" if args.worker_class == "gthread" else "")
    print(f"gunicorn on 127.0.0.1, {args.workers} {kind}, {os.cpu_count()} CPUs; "
          f"{args.clients} concurrent clients, {args.duration:.0f} s per route, gzip accepted; "
          f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after (1 min)")
    print("games: " + "; ".join(f"{g['title']} (selfplay({GAME_SEED}), code of {len(g['code'])} characters, "
                                f"/g/{g['id']})" for g in games))
    bare = results[0]
    print(f"{'route':<44} {'req/s':>8} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>7} "
          f"{'of bare':>8}")
    for r in results + cold:
        name = r["path"] if len(r["path"]) <= 44 else r["path"][:41] + "..."
        ratio = f"{r['rps'] / bare['rps']:.0%}" if bare["rps"] else "—"
        print(f"{name:<44} {r['rps']:>8.0f} {r['p50']:>8.1f} {r['p90']:>8.1f} {r['p99']:>8.1f} {r['max']:>8.1f} "
              f"{r['errors']:>7} {ratio:>8}")
        if r["error_kinds"]:
            print("   errors:", "; ".join(r["error_kinds"]))
    for page in results[1:]:
        ratio = page["rps"] / bare["rps"] if bare["rps"] else float("nan")
        print(f"{page['path']} reaches {ratio:.0%} of the bare route's requests/s (target >= 30%); "
              f"p99 {page['p99']:.1f} ms (target <= 100 ms); errors {page['errors']} (target 0)")
    for game, visit in visits:
        print()
        print(f"first visit to {game['name']} /r/<code>, bytes on the wire (gzip, headers included):")
        for url, wire, raw in visit["rows"]:
            extra = f"  ({raw} bytes of HTML uncompressed)" if raw else ""
            print(f"  {url:<44} {wire:>9,}{extra}")
        print(f"  {'total before the charts load':<44} {visit['before_charts']:>9,}  "
              f"({visit['before_charts'] / 1024:.1f} KiB; target <= 150 KB)")
        for url, wire in visit["charts"]:
            print(f"  then, for the charts: {url:<22} {wire:>9,}")

if __name__ == "__main__":
    main()
