"""The viewer's rough edges of issue 24 that are layout, CSS and small template matters, each
measured in Chromium at a desktop (1366 x 900) and a phone (375 x 812) size:

- tables never split a word letter by letter ("Sta/rte/d", "Contra ct", "Ratin g"); a wide
  listing scrolls inside its own box instead of the page;
- every link of the site's navigation can be seen and tapped (nothing scrolled sideways under the
  theme button);
- the party board's "Share round N: link · picture" is on the first screen, not cut or covered,
  and no card of a hand is cut by a scroll box;
- the party lobby's words have at least WCAG AA contrast (4.5:1) on the green felt;
- the "delete link shown only once" note shows only when a delete link was given;
- every UNO card shows its colour's letter (R, G, B, Y) beside its colour, in every view;
- "Started" shows "—", not the game's id, when the log has no start time.

The server is this module's own (a fresh SQLite archive): the sample games plus a batch of UNO
games whose players and bots have long names, as a busy archive has, which is what squeezed the
tables' columns until their headers broke.
"""

from __future__ import annotations

import json

import pytest

from .conftest import GAME_SAMPLES, SAMPLES, Server

pytestmark = pytest.mark.browser

SIZES = [pytest.param((1366, 900), id="1366x900"), pytest.param((375, 812), id="375x812")]
#: UNO games with long names: player names with spaces, bot names without
LONG_PLAYERS = ["Chidi Okonkwo-Adebayo of the Thursday night table", "Marie-Élise Vandenberghe-Lefèvre"]
LONG_BOT = "random-with-a-deliberately-long-descriptive-bot-name"


def long_named_uno_batch() -> bytes:
    """The UNO sample batch, each game renamed: long player names, long bot names."""
    lines = []
    for n, line in enumerate(GAME_SAMPLES["uno-lite"].read_text().splitlines()):
        log = json.loads(line)
        log["game_id"] = f"{log['game_id']}-long-names"
        for k, seat in enumerate(sorted(log["players"])):
            log["players"][seat]["name"] = f"{LONG_PLAYERS[k % 2]} {n}"
            if log["players"][seat].get("bot"):
                log["players"][seat]["bot"] = f"{LONG_BOT}-{n}"
        lines.append(json.dumps(log, ensure_ascii=False))
    return "\n".join(lines).encode()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from viewer.app import create_app, get_archive

    db = tmp_path_factory.mktemp("rough-edges") / "archive.db"
    app = create_app({"DB": f"sqlite:///{db}", "UPLOAD_RATE_PER_MINUTE": 600, "UPLOAD_RATE_BURST": 100})
    with app.app_context():
        archive = get_archive()
        games = {name: archive.ingest_paths([str(path)])[0].public_id for name, path in GAME_SAMPLES.items()}
        # the legacy worked example has no start time
        games["no-start-time"] = archive.ingest_paths([str(SAMPLES["worked"])])[0].public_id
        stored = archive.ingest_bytes(long_named_uno_batch(), "long-names.jsonl")
        assert len(stored) == 5 and all(r.public_id for r in stored), stored
    server = Server(app)
    server.games = games
    yield server
    server.close()


@pytest.fixture
def sized(chromium, request):
    """A page factory at one size (a phone context below 700 px: touch, mobile viewport)."""
    contexts = []

    def make(size: tuple[int, int], *, javascript: bool = True):
        width, height = size
        context = chromium.new_context(viewport={"width": width, "height": height}, is_mobile=width < 700,
                                       has_touch=width < 700, java_script_enabled=javascript)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()


def ready(page) -> None:
    page.locator("html.js-ready").wait_for(state="attached")


def go_to_step(page, step: int) -> None:
    page.evaluate("n => { location.hash = '#' + n; }", step)
    page.locator("#step-no", has_text=str(step)).wait_for()


# --- word breaking -------------------------------------------------------------------------

#: the words (runs of Latin, Cyrillic or Greek letters and digits) of the cells matching
#: `selector` that the browser laid out over more than one line
SPLIT_WORDS = """selector => {
  const word = /[\\p{Script=Latin}\\p{Script=Cyrillic}\\p{Script=Greek}\\p{Nd}]+/gu;
  const split = [];
  for (const cell of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(word)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) split.push(m[0]);
      }
    }
  }
  return split;
}"""

TOOL_PAGES = ["/games", "/stats?game=uno-lite", "/stats", "/stats?by=player&game=uno-lite", "/"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("path", TOOL_PAGES)
def test_table_words_never_split_and_wide_tables_scroll_in_their_box(site, sized, size, path):
    page = sized(size)
    page.goto(site.url + path)
    assert page.locator("table th").count() > 0
    assert page.evaluate(SPLIT_WORDS, "table th, table td") == []
    # the page itself never scrolls sideways: a table wider than the screen scrolls in its box
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    for box in page.locator(".table-scroll").all():
        widths = box.evaluate("b => [b.scrollWidth, b.clientWidth, getComputedStyle(b).overflowX]")
        assert widths[0] <= widths[1] or widths[2] in ("auto", "scroll"), widths


@pytest.mark.parametrize("size", SIZES)
def test_board_column_headers_keep_whole_words(site, sized, size):
    page = sized(size)
    for game in GAME_SAMPLES:
        page.goto(f"{site.url}/g/{site.games[game]}")
        ready(page)
        page.evaluate("document.documentElement.classList.add('whole-game')")
        assert page.evaluate(SPLIT_WORDS, "thead th") == [], game


# --- the site's navigation -----------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_every_nav_link_is_on_screen_and_tappable(site, sized, size):
    page = sized(size)
    width, height = size
    for path in ("/", "/games", "/stats", "/upload", f"/g/{site.games['party-cards']}"):
        page.goto(site.url + path)
        page.locator("#theme-toggle:not([hidden])").wait_for()
        links = page.locator("header.site nav a")
        assert links.count() == 5
        for n in range(links.count()):
            link = links.nth(n)
            box = link.bounding_box()
            name = link.inner_text()
            assert box["x"] >= 0 and box["y"] >= 0, (path, name, box)
            assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, (path, name, box)
            assert box["height"] >= 24, (path, name, box)  # a finger's target (WCAG 2.5.8)
            # nothing lies over it, not the theme button
            on_top = link.evaluate("""a => { const r = a.getBoundingClientRect();
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return hit !== null && (hit === a || a.contains(hit)); }""")
            assert on_top, (path, name)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, path
        nav = page.locator("header.site nav").evaluate("n => [n.scrollWidth, n.clientWidth]")
        assert nav[0] <= nav[1], (path, nav)
    # and a tap follows it
    page.goto(site.url + "/")
    target = page.locator("header.site nav a", has_text="Upload")
    if size[0] < 700:
        target.tap()
    else:
        target.click()
    page.wait_for_url("**/upload")


# --- the party board -----------------------------------------------------------------------

def a_round_step(page) -> int:
    """The first step of the sample's second round with an answer in (the hands are full), found
    by stepping the board."""
    last = int(page.locator("#step-text .step-no").inner_text().split("/")[1])
    for step in range(1, last + 1):
        go_to_step(page, step)
        if page.locator("#party-round").inner_text() == "Round 2" and page.locator("#party-answered").inner_text():
            return step
    raise AssertionError("the party sample has no answered second round")


def fully_shown(locator) -> bool:
    """The element is inside the viewport and what is at its centre is itself."""
    return locator.evaluate("""e => { const r = e.getBoundingClientRect();
        if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit !== null && (hit === e || e.contains(hit)); }""")


@pytest.mark.parametrize("size", SIZES)
def test_party_round_share_line_is_on_the_first_screen(site, sized, size):
    page = sized(size)
    page.goto(f"{site.url}/g/{site.games['party-cards']}")
    ready(page)
    a_round_step(page)
    page.evaluate("window.scrollTo(0, 0)")
    share = page.locator("#party-share")
    assert share.is_visible()
    assert share.inner_text().replace("\u00a0", " ").split() == ["Share", "round", "2:", "link", "·", "picture"]
    # not cut: all its text fits its box, and its box is on the first screen, not under the dock
    assert share.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight + 1")
    assert fully_shown(share)
    for link in ("#party-round-link", "#party-round-svg"):
        assert fully_shown(page.locator(link)), link
    dock = page.locator("#dock").bounding_box()
    box = share.bounding_box()
    assert box["y"] + box["height"] <= dock["y"] or box["y"] >= dock["y"] + dock["height"]
    # the round link opens that round
    assert f"round=2" in page.locator("#party-round-link").get_attribute("href")


#: the cards of the hands that a box cuts: through their lines (any box that clips them top or
#: bottom, or their own text overflowing), or at the side by a box that does not scroll sideways
CUT_CARDS = """() => {
  const cut = [];
  const board = document.getElementById('board');
  for (const card of document.querySelectorAll('#party-hands .party-card')) {
    const r = card.getBoundingClientRect();
    if (card.scrollHeight > card.clientHeight + 1 || card.scrollWidth > card.clientWidth + 1) {
      cut.push(card.textContent + ' (its text overflows)');
      continue;
    }
    for (let box = card.parentElement; box && box !== board.parentElement; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const b = box.getBoundingClientRect();
      const scrollsSideways = ['auto', 'scroll'].includes(style.overflowX) && box.scrollWidth > box.clientWidth;
      if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) { cut.push(card.textContent + ' (lines cut by ' + box.className + ')'); break; }
      if ((r.left < b.left - 0.5 || r.right > b.right + 0.5) && !scrollsSideways) {
        cut.push(card.textContent + ' (cut at the side by ' + box.className + ')'); break;
      }
    }
  }
  return cut;
}"""


@pytest.mark.parametrize("size", SIZES)
def test_party_hands_show_every_card_whole(site, sized, size):
    page = sized(size)
    page.goto(f"{site.url}/g/{site.games['party-cards']}")
    ready(page)
    a_round_step(page)
    cards = page.locator("#party-hands .party-card")
    assert cards.count() >= 20
    assert page.evaluate(CUT_CARDS) == []
    # every hand's last card can be brought into view whole, above the dock
    for hand in page.locator("#party-hands .party-hand").all():
        last = hand.locator(".party-card").last
        last.evaluate("e => e.scrollIntoView({block: 'center', inline: 'nearest'})")
        page.wait_for_timeout(50)
        assert fully_shown(last), last.text_content()
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]


# --- contrast --------------------------------------------------------------------------------

#: WCAG contrast ratio of an element's text: its colour (with its and its ancestors' opacity)
#: over the first opaque background behind it
CONTRAST = """e => {
  const rgba = s => { const m = s.match(/rgba?\\(([^)]+)\\)/); const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
                      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, bottom) => top.slice(0, 3).map((c, k) => c * top[3] + bottom[k] * (1 - top[3]));
  let background = null, opacity = 1, layers = [];
  for (let box = e; box; box = box.parentElement) {
    const style = getComputedStyle(box);
    opacity *= Number(style.opacity);
    if (style.backgroundImage !== 'none') return {error: 'a background image behind ' + box.className};
    const bg = rgba(style.backgroundColor);
    if (bg[3] > 0) layers.push(bg);
    if (bg[3] === 1) { background = bg; break; }
  }
  if (background === null) background = [255, 255, 255, 1];
  let behind = background.slice(0, 3);
  for (const layer of layers.slice(0, -1).reverse()) behind = over(layer, behind);
  const fg = rgba(getComputedStyle(e).color);
  const text = over([fg[0], fg[1], fg[2], fg[3] * opacity], behind);
  const lum = c => { const v = c.map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
                     return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const [a, b] = [lum(text), lum(behind)].sort((x, y) => y - x);
  return {ratio: (a + 0.05) / (b + 0.05), text, behind};
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
def test_party_lobby_text_has_aa_contrast_on_the_felt(site, sized, size, theme):
    page = sized(size)
    page.goto(f"{site.url}/g/{site.games['party-cards']}?theme={theme}")
    ready(page)
    lobby = page.locator("#party-lobby")
    assert lobby.is_visible() and "lobby" in lobby.inner_text()
    measured = lobby.evaluate(CONTRAST)
    assert "error" not in measured, measured
    assert measured["ratio"] >= 4.5, measured


# --- the upload note -----------------------------------------------------------------------

def upload(page, site, name: str, data: bytes) -> str:
    page.goto(site.url + "/upload")
    page.set_input_files("#upload-files", [{"name": name, "mimeType": "application/json", "buffer": data}])
    page.click("#upload-button")
    row = page.locator("#results > li").first
    row.wait_for()
    return row.get_attribute("data-status")


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no-script"])
@pytest.mark.parametrize("size", SIZES)
def test_shown_once_note_only_when_a_delete_link_was_given(site, sized, size, javascript):
    page = sized(size, javascript=javascript)
    note = page.locator("#results-box p", has_text="shown only once")
    # refused: nothing stored, no delete link, no note
    assert upload(page, site, "cut.json", GAME_SAMPLES["party-cards"].read_bytes()[:300]) == "refused"
    assert page.locator("a.manage-link").count() == 0 and not note.is_visible()
    # already there: nothing stored either
    assert upload(page, site, "again.json", GAME_SAMPLES["coup"].read_bytes()) == "duplicate"
    assert page.locator("a.manage-link").count() == 0 and not note.is_visible()
    # stored: its delete link, and the note that it is shown once
    log = json.loads(GAME_SAMPLES["party-cards"].read_text())
    log["game_id"] = f"{log.get('game_id', 'party')}-{size[0]}-{'js' if javascript else 'nojs'}"
    assert upload(page, site, "new.json", json.dumps(log).encode()) in ("stored", "stored_with_findings")
    assert page.locator("a.manage-link").count() == 1 and note.is_visible()
    assert page.errors == []


# --- UNO's colours -------------------------------------------------------------------------

#: UNO cards on screen whose colour letter is missing, hidden or not their colour's
MISSING_LETTERS = """() => {
  const letters = {red: 'R', green: 'G', blue: 'B', yellow: 'Y'};
  const wrong = [];
  let seen = 0;
  for (const card of document.querySelectorAll('#board .uno-card, #uno-turns .uno-card')) {
    const box = card.getBoundingClientRect();
    if (box.width === 0 || getComputedStyle(card).visibility !== 'visible') continue;
    seen++;
    const colour = [...card.classList].map(c => c.replace('uno-', '')).find(c => c in letters);
    const letter = card.querySelector('.uno-letter');
    const shown = letter && letter.getBoundingClientRect().width > 0 && getComputedStyle(letter).visibility === 'visible';
    if (!shown || letter.textContent !== letters[colour] || !card.innerText.includes(letters[colour]))
      wrong.push(card.outerHTML.slice(0, 120));
  }
  return {seen, wrong};
}"""


@pytest.mark.parametrize("size", SIZES)
def test_every_uno_card_shows_its_colour_letter_in_every_view(site, sized, size):
    page = sized(size)
    url = f"{site.url}/g/{site.games['uno-lite']}"
    page.goto(url)
    ready(page)
    views = page.locator("#perspective option").evaluate_all("os => os.map(o => o.value)")
    assert views[0] == "all" and len(views) == 3
    last = int(page.locator("#step-text .step-no").inner_text().split("/")[1])
    for view in views:
        # the page as the server draws it for that view, then as the script redraws each step
        page.goto(f"{url}?view={view}")
        ready(page)
        found = page.evaluate(MISSING_LETTERS)
        assert found["seen"] > 0 and found["wrong"] == [], (view, 0, found)
        for step in (1, 6, last // 2, last):
            go_to_step(page, step)
            found = page.evaluate(MISSING_LETTERS)
            assert found["seen"] > 0 and found["wrong"] == [], (view, step, found)
    # switching the view in place redraws with the letters too
    page.goto(url)
    ready(page)
    page.select_option("#perspective", views[1])
    go_to_step(page, 3)
    found = page.evaluate(MISSING_LETTERS)
    assert found["seen"] > 0 and found["wrong"] == [], found
    assert page.errors == []


# --- "Started" -----------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_started_shows_a_dash_without_a_start_time(site, sized, size):
    page = sized(size)
    public_id = site.games["no-start-time"]
    page.goto(site.url + "/games")
    row = page.locator(f'#games-table tr[data-id="{public_id}"]')
    assert row.locator("td").first.inner_text().strip() == "—"
    assert public_id not in page.locator("#games-table").inner_text()
    row.locator("td").first.locator("a").click()
    page.wait_for_url(f"**/g/{public_id}**")
    # the home page's recent games too
    page.goto(site.url + "/")
    link = page.locator(f'table.games a[href="/g/{public_id}"]').first
    assert link.inner_text().strip() == "—"
    assert public_id not in page.locator("table.games").inner_text()
