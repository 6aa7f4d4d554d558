/* Coup's board: draws the seats (coins, influence, face-down and lost cards), the court deck's
   size and the turn's stack with how it stands, for each step the stepper (stepper.js) shows.
   Every name, id and card is written with textContent.

   The page embeds the steps of its own view only (viewer/games/coup/view.py): in a seat's view
   the other seats' face-down cards are null and are not in the page at all, so changing the
   view loads the page of that view. Compact steps: k kind, s seat, x the turn so far, e the
   event's text, turn, c coins, n influence, h face-down cards (null: hidden), f face-up cards,
   each in seat order; o seats out, deck, ta to act, w winner, st the turn's stack, r how it
   stands, ov whether the turn is over. */
(function () {
  "use strict";
  var viewer = window.GameViewer;
  if (!viewer || !viewer.register) return;
  var G = viewer.game, el = viewer.el, last = viewer.last;
  var SEATS = G.seats, CARDS = G.cards || {};
  var ends = (viewer.data.chapters && viewer.data.chapters.ends) || [];
  var boxes = {};
  Array.prototype.forEach.call(document.querySelectorAll(".coup-seat"), function (box) {
    boxes[box.getAttribute("data-seat")] = box;
  });

  function $(id) { return document.getElementById(id); }
  function cardEl(letter, state) {
    var e = el("span", "coup-card " + state, CARDS[letter] || letter);
    e.setAttribute("data-card-state", state);
    e.setAttribute("data-card", letter);  // the card as the log writes it (studies mark it)
    return e;
  }
  function backEl() {
    var e = el("span", "coup-card back");
    e.setAttribute("data-card-state", "back");
    e.appendChild(el("span", "sr-only", "face-down card"));
    return e;
  }
  var MARKS = { bluff: "bluff", "true": "true claim", won: "won", lost: "lost" };
  var NAMES = G.names || {};
  function nameOf(seat) { return seat === null || seat === undefined ? "" : (NAMES[seat] || seat); }
  function markEl(e) {
    if (e.m && MARKS[e.m]) return el("span", "coup-mark " + e.m, MARKS[e.m]);
    if (e.cl) return el("span", "coup-mark unknown", "?");
    return null;
  }

  function renderSeat(seat, n, s) {
    var box = boxes[seat];
    if (!box) return;
    var out = s.o.indexOf(seat) >= 0, winner = s.w === seat;
    box.classList.toggle("to-act", s.ta === seat);
    box.classList.toggle("out", out);
    box.classList.toggle("winner", winner);
    box.querySelector("[data-coins]").textContent = String(s.c[n]);
    box.querySelector("[data-coins-word]").textContent = s.c[n] === 1 ? "coin" : "coins";
    box.querySelector("[data-influence]").textContent = String(s.n[n]);
    box.querySelector("[data-flag]").textContent = winner ? " \u00b7 wins" : out ? " \u00b7 out" : s.ta === seat ? " \u00b7 to act" : "";
    var frag = document.createDocumentFragment();
    var down = s.h[n];
    if (down === null || down === undefined) {
      for (var k = 0; k < s.n[n]; k++) frag.appendChild(backEl());
    } else {
      down.forEach(function (c) { frag.appendChild(cardEl(c, "down")); });
    }
    (s.f[n] || []).forEach(function (c) { frag.appendChild(cardEl(c, "up")); });
    box.querySelector("[data-cards]").replaceChildren(frag);
  }

  function renderStack(s) {
    var frag = document.createDocumentFragment();
    (s.st || []).forEach(function (e) {
      var li = el("li", "coup-entry coup-" + e.k);
      var a = el("a", null, e.x);
      a.href = "#" + e.i;
      a.setAttribute("data-step", String(e.i));
      li.appendChild(a);
      var m = markEl(e);
      if (m) { li.appendChild(document.createTextNode(" ")); li.appendChild(m); }
      frag.appendChild(li);
    });
    $("coup-stack").replaceChildren(frag);
    $("coup-result").textContent = s.r || "";
  }

  // the claims and challenges table counts up to the step shown (game.count_changes: [step,
  // seat, key], one per unit, in step order), never what comes later
  var CHANGES = G.count_changes || [];
  var countCells = {};
  Array.prototype.forEach.call(document.querySelectorAll("#coup-counts tr[data-seat]"), function (row) {
    var cells = {};
    Array.prototype.forEach.call(row.querySelectorAll("[data-count]"), function (td) { cells[td.getAttribute("data-count")] = td; });
    countCells[row.getAttribute("data-seat")] = cells;
  });
  function renderCounts(s) {
    var counts = {};
    SEATS.forEach(function (seat) { counts[seat] = { claims: 0, bluffs: 0, caught: 0, won: 0, lost: 0 }; });
    for (var k = 0; k < CHANGES.length && CHANGES[k][0] <= s.i; k++) {
      var c = counts[CHANGES[k][1]];
      if (c) c[CHANGES[k][2]] += 1;
    }
    SEATS.forEach(function (seat) {
      var cells = countCells[seat] || {};
      Object.keys(cells).forEach(function (key) { cells[key].textContent = String(counts[seat][key] || 0); });
    });
  }

  function render(s) {
    SEATS.forEach(function (seat, n) { renderSeat(seat, n, s); });
    renderCounts(s);
    $("coup-deck").textContent = String(s.deck);
    $("coup-turn").textContent = String(s.turn);
    renderStack(s);
    var outcome = $("outcome");
    if (outcome) {
      var text = "";
      if (s.i === last) {
        text = G.winners && G.winners.length ? G.winners.map(nameOf).join(", ") + " won" : "Ended: " + String(G.end || "").replace(/_/g, " ");
      } else if (s.ta) {
        text = nameOf(s.ta) + " to act";
      }
      outcome.textContent = text;
    }
  }

  // the coins and influence charts' x is the number of turns finished
  function chartMark(chart, s) {
    if (chart.mark !== "turn") return undefined;
    var n = 0;
    for (var k = 0; k < ends.length && ends[k] <= s.i; k++) n++;
    return n;
  }

  // another view is another page: its data holds what that view may see, and nothing more
  function init() {
    var select = $("perspective");
    if (!select) return;
    select.addEventListener("change", function () {
      if (select.value === G.perspective) return;
      // the names (players=) are kept as written: URLSearchParams would merge them
      var query = viewer.editQuery(location.search, { view: select.value === "all" ? null : select.value, step: null });
      // the address bar may show this view already (stepper.js keeps it there): load it anew
      history.replaceState(null, "", location.pathname + query + "#" + viewer.step);
      location.reload();
    });
  }

  viewer.register({
    stepped: "#coup-turns [data-step]",
    render: render,
    chartMark: chartMark,
    init: init
  });
})();
