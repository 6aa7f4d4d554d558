/* Texas hold'em's board: draws the seats (stack, bet, hole cards, button and blinds, folded,
   all-in, to act, chance to win), the board cards, the pot and the side pots for each step the
   stepper (stepper.js) shows. Every name, amount and card is written with textContent.

   The page embeds the steps of its own view only (viewer/games/holdem/view.py): in a seat's
   view the other seats' hole cards are "??" until shown, drawn as card backs, so changing the
   view loads the page of that view. Steps follow HoldemReplay.steps_json, plus x (the text with
   names) and eq (each live seat's chance to win in this view, or null).

   The chance-to-win chart (charts.py) comes with empty lines: this script fills them from the
   steps' eq before charts.js (loaded after it) reads the figures, so the chart of a seat's
   view counts only the cards that seat could see. */
(function () {
  "use strict";
  var viewer = window.GameViewer;
  if (!viewer || !viewer.register) return;
  var G = viewer.game, el = viewer.el, last = viewer.last, steps = viewer.steps;
  var SEATS = G.seats, NAMES = G.names || {}, BLINDS = G.blinds || {};
  var SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  var SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
  var RANK_NAMES = { "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
                     "9": "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };
  var STREETS = { preflop: "Preflop", flop: "Flop", turn: "Turn", river: "River", showdown: "Showdown" };
  var boxes = {}, bets = {};
  Array.prototype.forEach.call(document.querySelectorAll(".hd-seat"), function (box) {
    boxes[box.getAttribute("data-seat")] = box;
  });
  Array.prototype.forEach.call(document.querySelectorAll(".hd-bet"), function (chip) {
    bets[chip.getAttribute("data-bet-for")] = chip;
  });

  function $(id) { return document.getElementById(id); }
  function nameOf(seat) { return seat === null || seat === undefined ? "" : (NAMES[seat] || seat); }
  function money(x) {
    if (x === null || x === undefined) return "";
    var cents = !!G.cents || Math.round(x) !== x;
    return Number(x).toLocaleString("en-US", { minimumFractionDigits: cents ? 2 : 0, maximumFractionDigits: 2 });
  }
  function cardEl(card) {
    if (typeof card !== "string" || card.length !== 2 || !SUITS[card.charAt(1)]) {
      var back = el("span", "hd-card back");
      back.setAttribute("data-card-state", "back");
      back.appendChild(el("span", "sr-only", "face-down card"));
      return back;
    }
    var rank = card.charAt(0), suit = card.charAt(1);
    var e = el("span", "hd-card up " + (suit === "d" || suit === "h" ? "red" : "black"),
               (rank === "T" ? "10" : rank) + SUITS[suit]);
    e.setAttribute("data-card-state", "up");
    e.setAttribute("data-card", card);
    e.title = (RANK_NAMES[rank] || rank) + " of " + SUIT_NAMES[suit];
    return e;
  }
  function has(list, seat) { return (list || []).indexOf(seat) >= 0; }

  function renderSeat(seat, s) {
    var box = boxes[seat];
    if (!box) return;
    var folded = has(s.folded, seat), allIn = has(s.all_in, seat), winner = s.last && has(s.winners, seat);
    box.classList.toggle("to-act", s.to_act === seat);
    box.classList.toggle("folded", folded);
    box.classList.toggle("all-in", allIn);
    box.classList.toggle("winner", !!winner);
    box.querySelector("[data-stack]").textContent = money((s.stacks || {})[seat]);
    box.querySelector("[data-flag]").textContent = allIn ? "all-in" : folded ? "folded" : "";
    var eq = s.eq && s.eq[seat] !== undefined && s.eq[seat] !== null ? Math.round(100 * s.eq[seat]) + "%" : "";
    box.querySelector("[data-eq]").textContent = eq;
    var marks = document.createDocumentFragment();
    if (s.button === seat) {
      var d = el("span", "hd-dealer", "D");
      d.title = "dealer button";
      marks.appendChild(d);
    }
    if (BLINDS[seat]) marks.appendChild(el("span", "hd-blind", BLINDS[seat]));
    box.querySelector("[data-marks]").replaceChildren(marks);
    var cards = document.createDocumentFragment();
    ((s.hole || {})[seat] || []).forEach(function (c) { cards.appendChild(cardEl(c)); });
    box.querySelector("[data-cards]").replaceChildren(cards);
    var chip = bets[seat];
    if (chip) {
      var bet = (s.bets || {})[seat] || 0;
      chip.hidden = !bet;
      chip.textContent = bet ? money(bet) : "";
    }
  }

  function renderMiddle(s) {
    var frag = document.createDocumentFragment();
    var board = s.board || [];
    board.forEach(function (c) { frag.appendChild(cardEl(c)); });
    for (var k = board.length; k < 5; k++) {
      var slot = el("span", "hd-slot");
      slot.setAttribute("aria-hidden", "true");
      frag.appendChild(slot);
    }
    $("hd-board").replaceChildren(frag);
    $("hd-street").textContent = STREETS[s.street] || s.street || "";
    $("hd-pot").textContent = money(s.pot);
    // the pots two seats or more contest (a bet nobody has matched yet is not a pot)
    var pots = (s.pots || []).filter(function (p) { return (p.seats || []).length >= 2 || (p.winners && p.winners.length); });
    var lines = document.createDocumentFragment();
    var settled = pots.some(function (p) { return p.winners && p.winners.length; });
    if (pots.length > 1 || settled) {
      pots.forEach(function (p, n) {
        var what = n === 0 ? "main pot" : pots.length > 2 ? "side pot " + n : "side pot";
        var line = what + " " + money(p.amount);
        if (p.winners && p.winners.length) line += " \u2192 " + p.winners.map(nameOf).join(", ");
        lines.appendChild(el("li", null, line));
      });
    }
    $("hd-pots").replaceChildren(lines);
  }

  function outcomeText(s) {
    if (s.i === last) {
      var winners = (s.winners && s.winners.length ? s.winners : G.winners) || [];
      if (!winners.length) return "Ended: " + String(G.end || "").replace(/_/g, " ");
      var payoffs = s.payoffs || {};
      return winners.map(function (w) {
        var gain = payoffs[w];
        return nameOf(w) + (gain > 0 ? " +" + money(gain) : "");
      }).join(", ") + " won";
    }
    return s.to_act ? nameOf(s.to_act) + " to act" : "";
  }

  function render(s) {
    SEATS.forEach(function (seat) { renderSeat(seat, s); });
    renderMiddle(s);
    var outcome = $("outcome");
    if (outcome) outcome.textContent = outcomeText(s);
  }

  // the chance-to-win chart: its lines from this view's steps (see the note at the top)
  function fillCharts() {
    var dataEl = $("charts-data");
    if (!dataEl) return;
    var charts = JSON.parse(dataEl.textContent);
    var changed = false;
    charts.forEach(function (chart) {
      if (chart.fill !== "equity" || !chart.figure) return;
      chart.figure.data.forEach(function (trace) {
        var xs = [], ys = [], at = [];
        steps.forEach(function (s) {
          if (!s.eq || s.eq[trace.seat] === undefined || s.eq[trace.seat] === null) return;
          xs.push(s.i);
          ys.push(Math.round(1000 * s.eq[trace.seat]) / 10);
          at.push(s.i);
        });
        trace.x = xs; trace.y = ys; trace.customdata = at;
      });
      changed = true;
    });
    if (changed) dataEl.textContent = JSON.stringify(charts);
  }
  fillCharts();

  // another view is another page: its data holds what that view may see, and nothing more
  function init() {
    var select = $("perspective");
    if (!select) return;
    select.addEventListener("change", function () {
      if (select.value === G.perspective) return;
      // the names (players=) are kept as written: URLSearchParams would merge them
      var query = viewer.editQuery(location.search, { view: select.value === "all" ? null : select.value, step: null });
      history.replaceState(null, "", location.pathname + query + "#" + viewer.step);
      location.reload();
    });
  }

  viewer.register({
    stepped: "#hd-record [data-step]",
    render: render,
    init: init
  });
})();
