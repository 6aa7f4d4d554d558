"""A mixed load against the whole viewer under gunicorn on loopback: code pages, archived pages, uploads.

    python bench/load.py [--duration 60] [--users 50] [--workers 4] [--threads 1] [--think 1.0]

Fills a fresh SQLite archive with public self-play games of every registered game
(``replay.games.names()``: floating bridge, UNO Lite, Coup, party cards; the games take turns,
seed by seed, each played by its game's default bots with chat), starts gunicorn on 127.0.0.1 (a
free port), then runs ``--users`` concurrent users (threads spread over two client
processes, one keep-alive connection each, gzip accepted like a browser) for ``--duration``
seconds. Each request is, at random, a code page ``/r/<code>`` (80%), an archived page
``/g/<id>`` (15%) or an upload ``POST /api/logs`` of a game never seen before (5%); pages and
uploads are drawn from all the games alike (about a quarter each). A user waits
``--think`` seconds on average (uniform 0..2x) between requests, as a person stepping through
replays does; ``--think 0`` sends back to back (a closed loop that saturates the machine, which
measures capacity rather than latency). It prints throughput, latency percentiles per kind, per
game and overall, errors, the machine's load average, and
checks afterwards that every upload the server acknowledged (201 with a token) is in the
archive. The per-client upload rate limit is raised for the run (all users share one address).
Loopback only; bounded by ``--duration`` plus start-up.

With ``--images SHARE`` (e.g. 0.3) the run has two phases of ``--duration`` each on the same
server: pages alone, then the same users with that share of their requests for images (of games
with a drawing: 80% PNGs of a random step from a random view, 20% GIFs or MP4s of 4-12 steps;
cold, so the image cache does not answer them all). It prints page latency (code and archived
pages) in both phases and their ratio (p50/p95 with images over without), and how many image
requests got 429 (the per-client rate limit: every user shares one address here) or 503 (the
process's render budget). ``--open-image-limits`` raises the image rate limits out of the way,
to see the render budget alone.

    python bench/load.py --duration 20 --users 20 --images 0.3
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
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
sys.path.insert(0, str(ROOT))

from archive import Archive  # noqa: E402
from archive.uploads import Uploads  # noqa: E402
from replay.games import get, names  # noqa: E402
from viewer.assets import Assets  # noqa: E402

MIX = (("code", 0.80), ("archived", 0.15), ("upload", 0.05))
PAGE_KINDS = ("code", "archived")
IMAGE_KINDS = ("picture", "animation")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fill(db_url: str, games: int) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[tuple[str, bytes]], list]:
    """Store ``games`` public self-play games, every registered game in turn; returns (game,
    code), (game, public id) and (game, upload template) pairs, and the image targets: (game,
    path, steps, views) of each game with a drawing."""
    archive = Archive(db_url)
    registered = names()
    for seed in range(games):
        name = registered[seed % len(registered)]
        log = get(name).selfplay(seed, chat=True)
        archive.ingest_bytes(log.canonical_json().encode(), f"fill-{name}-{seed}.json")
    items = archive.list(limit=games).items
    codes = [(i.game, i.code) for i in items if i.code]
    ids = [(i.game, i.public_id) for i in items]
    templates = [(name, json.dumps(get(name).selfplay(100_000 + s, chat=True).to_json_dict()).encode())
                 for s in range(5) for name in registered]
    targets = []
    for item in items:
        module = get(item.game)
        if not module.has_drawing:
            continue
        replay = archive.get(item.public_id).replay()
        views = ["all", "public", *module.seat_order(replay.log)]
        steps = len(replay.steps_json())
        targets.append((item.game, f"/g/{item.public_id}", steps, views))
        if item.code:
            targets.append((item.game, f"/r/{item.code}", steps, views))
    archive.close()
    return codes, ids, templates, targets


def image_path(rng: random.Random, targets: list) -> tuple[str, str, str]:
    """A cold image request: (kind, game, path) of a random step and view, or a short range."""
    game, path, steps, views = rng.choice(targets)
    view = rng.choice(views)
    if rng.random() < 0.8:
        return "picture", game, f"{path}/picture.png?step={rng.randrange(steps)}&view={view}"
    first = rng.randrange(max(1, steps - 4))
    last = min(steps - 1, first + rng.randint(3, 11))
    suffix = rng.choice(("gif", "mp4"))
    return "animation", game, f"{path}/animation.{suffix}?from={first}&to={last}&view={view}"


def user(port: int, stop_at: float, codes: list[tuple[str, str]], ids: list[tuple[str, str]],
         templates: list[tuple[str, bytes]], think: float,
         seed: int, out: list, images: float = 0.0, targets: list | None = None) -> None:
    rng = random.Random(seed)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Accept-Encoding": "gzip", "Accept": "text/html"}
    n = 0
    while time.monotonic() < stop_at:
        r = rng.random()
        kind = "code" if r < MIX[0][1] else "archived" if r < MIX[0][1] + MIX[1][1] else "upload"
        body = None
        if images and targets and rng.random() < images:
            kind, game, path = image_path(rng, targets)
            method, h = "GET", {"Accept": "image/avif,image/webp,*/*"}
        elif kind == "code":
            game, code = rng.choice(codes)
            method, path, h = "GET", f"/r/{code}", headers
        elif kind == "archived":
            game, public_id = rng.choice(ids)
            method, path, h = "GET", f"/g/{public_id}", headers
        else:
            n += 1
            game, template = rng.choice(templates)
            log = json.loads(template)
            log["game_id"] = f"load-{seed}-{n}-{rng.random()}"
            body = json.dumps(log).encode()
            method, path = "POST", "/api/logs?name=load.json"
            h = {"Content-Type": "application/json", "Accept": "application/json"}
        start = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers=h)
            response = conn.getresponse()
            data = response.read()
            status = response.status
        except (OSError, http.client.HTTPException) as exc:
            out.append((kind, time.perf_counter() - start, 0, f"{type(exc).__name__}: {exc}", game))
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        elapsed = time.perf_counter() - start
        token = None
        if kind == "upload" and status == 201:
            try:
                token = json.loads(data)["files"][0]["games"][0].get("token")
            except (ValueError, KeyError, IndexError):
                token = None
        out.append((kind, elapsed, status, token, game))
        if think:
            time.sleep(rng.uniform(0, 2 * think))
    conn.close()


def probe(port: int, stop_at: float, path: str, out: list) -> None:
    """The machine's own noise: a tiny static file every 100 ms, outside the mix."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while time.monotonic() < stop_at:
        start = time.perf_counter()
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            out.append(("probe", time.perf_counter() - start, response.status, None, None))
        except (OSError, http.client.HTTPException) as exc:
            out.append(("probe", time.perf_counter() - start, 0, repr(exc), None))
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        time.sleep(0.1)
    conn.close()


def client_process(port: int, users: int, start_at: float, duration: float, codes, ids, templates, think: float,
                   base_seed: int, queue, probe_path: str | None = None, images: float = 0.0,
                   targets: list | None = None) -> None:
    while time.monotonic() < start_at:
        time.sleep(0.005)
    stop_at = start_at + duration
    results: list = []
    threads = [threading.Thread(target=user, args=(port, stop_at, codes, ids, templates, think, base_seed + i, results,
                                                   images, targets))
               for i in range(users)]
    if probe_path:
        threads.append(threading.Thread(target=probe, args=(port, stop_at, probe_path, results)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    queue.put(results)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(q / 100 * (len(values) - 1)))))
    return values[k]


def report(label: str, results: list, args) -> None:
    """One phase's table: each kind, then its share of each game, and the probe."""
    probes = [r for r in results if r[0] == "probe"]
    results = [r for r in results if r[0] != "probe"]
    total = len(results)
    errors = [r for r in results if not (200 <= r[2] < 400)]
    print(f"\n{label}: {args.users} users, {args.duration:.0f} s, think {args.think} s, gunicorn "
          f"{args.workers} workers x {args.threads} threads (gthread), {os.cpu_count()} CPUs, SQLite")
    print(f"{'kind':<20}{'requests':>10}{'share':>8}{'req/s':>9}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}"
          f"{'max ms':>9}{'errors':>8}")

    def row(name: str, rows: list) -> None:
        lat = [r[1] * 1000 for r in rows]
        errs = sum(1 for r in rows if not (200 <= r[2] < 400))
        print(f"{name:<20}{len(rows):>10}{len(rows) / max(total, 1):>8.1%}{len(rows) / args.duration:>9.1f}"
              f"{percentile(lat, 50):>9.1f}{percentile(lat, 90):>9.1f}{percentile(lat, 99):>9.1f}"
              f"{max(lat or [0]):>9.1f}{errs:>8}")

    games = [game for game in names() if any(r[4] == game for r in results)]  # registry order
    kinds = [k for k in ("code", "archived", "upload", *IMAGE_KINDS) if any(r[0] == k for r in results)]
    for kind in (*kinds, "all"):  # each kind, then its share of each game
        row(kind, [r for r in results if kind == "all" or r[0] == kind])
        for game in games:
            rows = [r for r in results if (kind == "all" or r[0] == kind) and r[4] == game]
            if rows:
                row(f"  {game}", rows)
    plat = [r[1] * 1000 for r in probes]
    print(f"{'(probe)':<20}{len(probes):>10}{'':>8}{len(probes) / args.duration:>9.1f}{percentile(plat, 50):>9.1f}"
          f"{percentile(plat, 90):>9.1f}{percentile(plat, 99):>9.1f}{max(plat or [0]):>9.1f}"
          f"{sum(1 for r in probes if not 200 <= r[2] < 400):>8}   <- a tiny static file, outside the mix: "
          "the machine's own noise")
    if errors:
        shown: dict[str, int] = {}
        for r in errors:
            key = f"{r[0]} {r[4]} {r[2]} {r[3] if isinstance(r[3], str) and r[2] == 0 else ''}".strip()
            shown[key] = shown.get(key, 0) + 1
        print("not 2xx/3xx:", ", ".join(f"{k}: {v}" for k, v in sorted(shown.items())))


def compare(phases: list, args) -> None:
    """Page latency without and with the image flood, their ratio, and what the images got."""
    (_, alone), (label, mixed) = phases

    def pages(results: list) -> list[float]:
        return [r[1] * 1000 for r in results if r[0] in PAGE_KINDS and 200 <= r[2] < 400]

    before, after = pages(alone), pages(mixed)
    print(f"\npage latency (code and archived pages, answered): pages alone vs {label}")
    print(f"{'':<14}{'pages':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    for name, values in (("alone", before), ("with images", after)):
        print(f"{name:<14}{len(values):>8}{percentile(values, 50):>9.1f}{percentile(values, 95):>9.1f}"
              f"{percentile(values, 99):>9.1f}")
    print(f"{'ratio':<14}{'':>8}{percentile(after, 50) / percentile(before, 50):>8.2f}x"
          f"{percentile(after, 95) / percentile(before, 95):>8.2f}x{percentile(after, 99) / percentile(before, 99):>8.2f}x")
    for kind in IMAGE_KINDS:
        rows = [r for r in mixed if r[0] == kind]
        statuses: dict[int, int] = {}
        for r in rows:
            statuses[r[2]] = statuses.get(r[2], 0) + 1
        drawn = [r[1] * 1000 for r in rows if r[2] == 200]
        print(f"{kind} requests: {len(rows)}; 200: {statuses.get(200, 0)} (p50 {percentile(drawn, 50):.0f} ms, "
              f"p95 {percentile(drawn, 95):.0f} ms), 429 (rate limit): {statuses.get(429, 0)}, "
              f"503 (render budget): {statuses.get(503, 0)}, other: "
              f"{sum(n for s, n in statuses.items() if s not in (200, 429, 503))}"
              + ("  (image rate limits opened)" if args.open_image_limits else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--workers", type=int, default=4)
    # one thread per worker: the archive's zstd (de)compressors are shared per process and
    # python-zstandard objects are not safe to use from several threads at once
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a user waits between requests")
    parser.add_argument("--games", type=int, default=300, help="public games to fill the archive with")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--images", type=float, default=0.0,
                        help="share of requests for pictures and animations in a second phase (0: no second phase)")
    parser.add_argument("--open-image-limits", action="store_true",
                        help="raise the per-client image rate limits out of the way (the render budget alone)")
    args = parser.parse_args()
    if not (1 <= args.users <= 500 and 1 <= args.duration <= 600):
        parser.error("keep it bounded: 1-500 users, 1-600 s")
    if not 0 <= args.images <= 1:
        parser.error("--images is a share of the requests, from 0 to 1")

    tmp = Path(tempfile.mkdtemp(prefix="load-bench-"))
    db_url = f"sqlite:///{tmp / 'archive.db'}"
    t0 = time.perf_counter()
    codes, ids, templates, targets = fill(db_url, args.games)
    if args.images and not targets:
        parser.error("no registered game has a drawing: no images to ask for")
    per_game = {game: sum(1 for g, _ in ids if g == game) for game in names()}
    print(f"filled the archive with {len(ids)} games ({len(codes)} with codes; "
          + ", ".join(f"{game} {n}" for game, n in per_game.items()) + f") in {time.perf_counter() - t0:.1f} s")

    port = free_port()
    env = {**os.environ, "GAME_REPLAY_DB": db_url, "GAME_REPLAY_UPLOAD_RATE_PER_MINUTE": "10000000",
           "GAME_REPLAY_UPLOAD_RATE_BURST": "10000000", "PYTHONPATH": str(ROOT)}
    if args.open_image_limits:
        env.update({f"GAME_REPLAY_{kind}_RATE_{what}": "10000000" for kind in ("PICTURE", "ANIMATION")
                    for what in ("PER_MINUTE", "BURST")})
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-w", str(args.workers), "-k", "gthread", "--threads", str(args.threads),
         "-b", f"127.0.0.1:{port}", "--log-level", "warning", "--backlog", "512",
         "--keep-alive", "75",  # longer than a user's think time, as behind nginx
         "viewer.app:create_app()"],
        cwd=str(ROOT), env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 90  # a busy shared machine boots workers slowly
        while True:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                c.request("GET", f"/g/{ids[0][1]}")
                c.getresponse().read()
                c.close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("gunicorn did not start")
                time.sleep(0.2)
        # a running site has each worker's page cache warm: request every code from several
        # connections at once, so that every worker sees most of them
        # (and every page must show whole: a 413 "too large to show here" would be no page to time)
        warm_statuses: dict[int, int] = {}

        def warm(offset: int) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            for _, code in codes[offset:] + codes[:offset]:
                conn.request("GET", f"/r/{code}", headers={"Accept-Encoding": "gzip"})
                response = conn.getresponse()
                response.read()
                warm_statuses[response.status] = warm_statuses.get(response.status, 0) + 1
            conn.close()

        t0 = time.perf_counter()
        warmers = [threading.Thread(target=warm, args=(i * len(codes) // 8,)) for i in range(args.workers * 2)]
        for t in warmers:
            t.start()
        for t in warmers:
            t.join()
        print(f"warmed the code pages in {time.perf_counter() - t0:.1f} s (statuses: "
              + ", ".join(f"{status} x {n}" for status, n in sorted(warm_statuses.items())) + ")")
        if set(warm_statuses) != {200}:
            raise SystemExit("some code pages do not show whole (not 200): no page to time")

        processes = max(1, min(args.client_processes, args.users))
        ctx = multiprocessing.get_context("fork")
        probe_path = Assets().url("favicon.svg")
        per = [args.users // processes + (1 if i < args.users % processes else 0) for i in range(processes)]

        def run_phase(images: float, seed_base: int) -> list:
            queue = ctx.Queue()
            start_at = time.monotonic() + 1.0
            procs = [ctx.Process(target=client_process, args=(port, n, start_at, args.duration, codes, ids, templates,
                                                               args.think, seed_base + 1000 * i, queue,
                                                               probe_path if i == 0 else None, images, targets))
                     for i, n in enumerate(per)]
            for p in procs:
                p.start()
            found = []
            for _ in procs:
                found.extend(queue.get(timeout=args.duration + 120))
            for p in procs:
                p.join()
            return found

        phases = [("pages alone", run_phase(0.0, 0))]
        if args.images:
            phases.append((f"with {args.images:.0%} image requests", run_phase(args.images, 500_000)))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)

    # -- figures --------------------------------------------------------------------------------
    for label, results in phases:
        report(label, results, args)
    if len(phases) == 2:
        compare(phases, args)
    load = os.getloadavg()
    print(f"load average at the end: {load[0]:.2f} (1 min), {load[1]:.2f} (5 min) on {os.cpu_count()} CPUs")

    results = [r for _, found in phases for r in found]
    tokens = [r[3] for r in results if r[0] == "upload" and r[2] == 201]
    archive = Archive(db_url)
    store = Uploads(archive)
    missing = [t for t in tokens if not t or store.by_token(t) is None]
    print(f"\nacknowledged uploads: {len(tokens)}; present in the archive afterwards: {len(tokens) - len(missing)}; "
          f"missing: {len(missing)}  -> {'every acknowledged upload is there' if not missing else 'LOST UPLOADS'}")
    print(f"games in the archive: {archive.count()} (filled {len(ids)} + {len(tokens)} uploads)")
    archive.close()


if __name__ == "__main__":
    main()
