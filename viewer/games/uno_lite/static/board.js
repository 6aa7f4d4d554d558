/* UNO Lite's board: draws both hands (or one seat's), the top discard, the draw pile's size,
   whose turn it is and what was drawn, for each step the stepper (stepper.js) shows. Every
   name and card is written with textContent. Compact steps (viewer/games/uno_lite/view.py):
   k kind, s seat, x text, xs each seat's own wording, h hands in seat order, top, pile,
   ta to act, turn, d drawn card, c card, w winner. */
(function () {
  "use strict";
  var viewer = window.GameViewer;
  if (!viewer || !viewer.register) return;
  var G = viewer.game, el = viewer.el, last = viewer.last;
  var SEATS = G.seats, NAMES = G.names || {};
  function nameOf(seat) { return seat === null || seat === undefined ? "" : (NAMES[seat] || seat); }
  var WORDS = { R: "red", G: "green", B: "blue", Y: "yellow" };
  var ends = (viewer.data.chapters && viewer.data.chapters.ends) || [];

  function $(id) { return document.getElementById(id); }
  function cardEl(code) {
    var word = WORDS[code.charAt(0)] || code.charAt(0);
    var e = el("span", "uno-card uno-" + word);
    e.title = word + " " + code.slice(1);
    e.setAttribute("data-card", code);  // the card as the log writes it (studies mark it)
    e.appendChild(el("span", "sr-only", word + " "));
    var letter = el("span", "uno-letter", code.charAt(0));  // the colour without colour (board.html)
    letter.setAttribute("aria-hidden", "true");
    e.appendChild(letter);
    e.appendChild(document.createTextNode(code.slice(1)));
    return e;
  }
  function sees(seat) { return viewer.perspective === "all" || viewer.perspective === seat; }

  function renderSeat(seat, n, s) {
    var box = document.querySelector('.uno-seat[data-seat="' + seat + '"]');
    if (!box) return;
    box.classList.toggle("to-act", s.ta === seat);
    var cards = s.h[n] || [];
    box.querySelector("[data-size]").textContent = String(cards.length);
    var frag = document.createDocumentFragment();
    if (sees(seat)) {
      if (cards.length) cards.forEach(function (c) { frag.appendChild(cardEl(c)); });
      else frag.appendChild(el("span", "muted", "no cards"));
    } else {
      frag.appendChild(el("div", "hidden-hand", cards.length + " card" + (cards.length === 1 ? "" : "s") + " hidden"));
    }
    box.querySelector("[data-hand]").replaceChildren(frag);
  }

  // the record names every drawn card: from a seat's view, the other seat's draws stay hidden
  var drawnCards = Array.prototype.slice.call(document.querySelectorAll("#uno-turns [data-drawn-by]"));

  function render(s) {
    SEATS.forEach(function (seat, n) { renderSeat(seat, n, s); });
    drawnCards.forEach(function (e) { e.hidden = !sees(e.getAttribute("data-drawn-by")); });
    $("uno-top").replaceChildren(cardEl(s.top));
    $("uno-pile-size").textContent = String(s.pile);
    if ($("uno-turn")) $("uno-turn").textContent = String(s.turn || 0);
    var drawnBox = $("uno-drawn-box");
    if (s.k === "draw") {
      drawnBox.hidden = false;
      $("uno-drawn-by").textContent = nameOf(s.s);
      $("uno-drawn").replaceChildren(s.d && sees(s.s) ? cardEl(s.d) : el("span", "muted", "a card"));
    } else {
      drawnBox.hidden = true;
    }
    var outcome = $("outcome");
    if (outcome) {
      var text = "";
      if (s.i === last) {
        text = G.winners && G.winners.length ? G.winners.map(nameOf).join(", ") + " won" : "Ended: " + String(G.end || "").replace(/_/g, " ");
      } else if (s.ta) {
        text = nameOf(s.ta) + " to play";
      }
      outcome.textContent = text;
    }
  }

  function text(s) {
    var p = viewer.perspective;
    return p !== "all" && s.xs && s.xs[p] !== undefined ? s.xs[p] : s.x;
  }

  // the hand sizes chart's x is the number of turns finished
  function chartMark(chart, s) {
    if (chart.mark !== "turn") return undefined;
    var n = 0;
    for (var k = 0; k < ends.length && ends[k] <= s.i; k++) n++;
    return n;
  }

  viewer.register({
    stepped: "#uno-turns [data-step]",
    render: render,
    text: text,
    chartMark: chartMark
  });
})();
