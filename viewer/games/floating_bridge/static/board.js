/* Floating bridge's board: draws the four hands, the trick, the banner and the marks on the
   auction and play tables for each step the stepper (stepper.js) shows. Every name is written
   with textContent. The compact steps (viewer/games/floating_bridge/view.py): h hands (N E S W),
   tr the trick, tn trick number, tw tricks won, ds/df the sides' tricks, pr partner revealed,
   ta to act, ph phase, w trick winner.
   Nothing later than the step shows (unless viewer.whole()): the banner gives the high bid
   during the auction, the contract and the declarer's badge from the call that won it, the
   partner card from the step it is called. */
(function () {
  "use strict";
  var viewer = window.GameViewer;
  if (!viewer || !viewer.register) return;
  var G = viewer.game, last = viewer.last, el = viewer.el;
  var SEATS = ["N", "E", "S", "W"];
  var FULL = { N: "North", E: "East", S: "South", W: "West" };
  var SYM = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var SUIT_WORD = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  var RANKS = "23456789TJQKA";
  var STRAIN = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660", N: "NT" };
  var reveal = !!viewer.data.initial.reveal;

  function $(id) { return document.getElementById(id); }
  function rankText(c) { return c.charAt(1) === "T" ? "10" : c.charAt(1); }
  function cardEl(c, extra) {
    var suit = c.charAt(0);
    var e = el("span", "card" + (suit === "H" || suit === "D" ? " red" : "") + (extra ? " " + extra : ""));
    e.appendChild(el("span", "sym", SYM[suit]));
    e.appendChild(document.createTextNode(rankText(c)));
    return e;
  }

  // the auction is over (the contract known) from this step on
  function contractKnown(s) {
    if (viewer.whole()) return true;
    return G.auction_end !== null && G.auction_end !== undefined && s.i >= G.auction_end;
  }
  function callText(a) { return a.charAt(0) + (STRAIN[a.charAt(1)] || a.slice(1)); }
  var SEAT_FULL = FULL;
  function highBid(s) {
    var best = null;
    for (var n = 0; n <= s.i; n++) {
      var st = viewer.steps[n];
      if (st.k === "call" && st.a && st.a !== "pass") best = st;
    }
    return best ? callText(best.a) + " by " + SEAT_FULL[best.s] : "\u2014";
  }

  function revealed(s) {
    var perspective = viewer.perspective;
    return reveal || s.pr || (perspective !== "all" && perspective === G.partner_seat);
  }

  function renderHand(seat, s) {
    var box = document.querySelector('[data-hand="' + seat + '"]');
    if (!box) return;
    var cards = s.h[SEATS.indexOf(seat)];
    var frag = document.createDocumentFragment();
    var perspective = viewer.perspective;
    if (perspective === "all" || perspective === seat) {
      ["S", "H", "D", "C"].forEach(function (suit) {
        var ranks = cards.filter(function (c) { return c.charAt(0) === suit; })
          .sort(function (a, b) { return RANKS.indexOf(b.charAt(1)) - RANKS.indexOf(a.charAt(1)); })
          .map(rankText);
        var row = el("div", "suit" + (suit === "H" || suit === "D" ? " red" : ""));
        var sym = el("span", "sym", SYM[suit]);
        sym.setAttribute("aria-label", SUIT_WORD[suit]);
        row.appendChild(sym);
        row.appendChild(el("span", "ranks", ranks.length ? ranks.join(" ") : "\u2014"));
        frag.appendChild(row);
      });
    } else {
      frag.appendChild(el("div", "hidden-hand", cards.length + " card" + (cards.length === 1 ? "" : "s") + " hidden"));
    }
    box.replaceChildren(frag);
  }

  function renderSeat(seat, s) {
    var box = document.querySelector('.seat[data-seat="' + seat + '"]');
    if (!box) return;
    box.classList.toggle("to-act", s.ta === seat);
    var roles = box.querySelector(".roles");
    var frag = document.createDocumentFragment();
    if (G.declarer === seat && contractKnown(s)) frag.appendChild(el("span", "role decl", "Declarer"));
    if (G.partner_seat === seat && G.partner_seat !== G.declarer && revealed(s)) {
      frag.appendChild(el("span", "role partner", "Partner"));
    }
    roles.replaceChildren(frag);
    box.querySelector("[data-count]").textContent = String(s.tw[SEATS.indexOf(seat)]);
    renderHand(seat, s);
  }

  // every seat's card has its own spot: a card never moves while the trick is played
  function renderTrick(s) {
    SEATS.forEach(function (seat) {
      var slot = document.querySelector('#trick [data-slot="' + seat + '"]');
      if (!slot) return;
      var played = null, lead = false;
      s.tr.forEach(function (pair, n) { if (pair[0] === seat) { played = pair[1]; lead = n === 0; } });
      if (!played) { slot.replaceChildren(); return; }
      var extra = (s.w && s.w === seat ? "won" : "") + (lead ? " lead" : "");
      slot.replaceChildren(cardEl(played, extra.trim()));
    });
  }

  function showEl(id, on) { var e = $(id); if (e) e.hidden = !on; }

  function renderBanner(s) {
    var known = contractKnown(s);
    var auction = !known && !(G.contract === null && s.i === last);
    showEl("banner-bid", auction);
    if (auction && $("banner-bid-text")) $("banner-bid-text").textContent = highBid(s);
    showEl("banner-contract", !auction);
    showEl("banner-needed", known);
    showEl("banner-counts", known);
    showEl("banner-partner", viewer.whole() || (G.partner_called !== null && G.partner_called !== undefined && s.i >= G.partner_called));
    var decl = $("count-decl"), def = $("count-def"), note = $("partner-note");
    if (decl && def) {
      var show = revealed(s);
      decl.textContent = show ? String(s.ds) : "?";
      def.textContent = show ? String(s.df) : "?";
      if (note) note.hidden = show;
    }
    var outcome = $("outcome");
    if (outcome) {
      var text = "";
      if (s.i === last) {
        if (G.winner) text = (G.winner === "declarer" ? "Declarer\u2019s side" : "Defenders") + " won";
        else text = "Ended: " + String(G.end || "").replace(/_/g, " ");
      } else if (s.ph === "auction" || s.ph === "partner" || s.ph === "play") {
        text = s.ta ? FULL[s.ta] + " to " + (s.ph === "auction" ? "call" : s.ph === "partner" ? "name the partner card" : "play") : "";
      }
      outcome.textContent = text;
    }
  }

  // an unfinished trick hides its winner until its last card falls
  var playRows = Array.prototype.slice.call(document.querySelectorAll("#play tbody tr")).map(function (row) {
    var lastStep = -1;
    row.querySelectorAll("[data-step]").forEach(function (e) { lastStep = Math.max(lastStep, +e.getAttribute("data-step")); });
    return { row: row, last: lastStep };
  });

  function mark(i, s) {
    playRows.forEach(function (r) { r.row.classList.toggle("unfinished", r.last > i); });
    var tn = s.k === "play" || s.ph === "play" || s.ph === "over" ? s.tn : 0;
    playRows.forEach(function (r, n) { r.row.classList.toggle("current-trick", n + 1 === tn && s.tr.length > 0); });
  }

  // charts: "tricks" marks the tricks finished, "trick" the trick under way; the race shows
  // the sides, so it stays hidden like the banner's counts
  function chartMark(chart, s) {
    if (chart.mark === "tricks") return s.tw.reduce(function (a, b) { return a + b; }, 0);
    if (chart.mark === "trick") return s.tn > 0 && (s.ph === "play" || s.ph === "over") ? s.tn : null;
    return undefined;
  }
  function chartHidden(chart, s) {
    if (chart.id === "race" && !!G.partner_seat && G.partner_seat !== G.declarer && !revealed(s)) {
      return "The tricks race shows the sides, so it stays hidden until the partner card falls (or tick \u201creveal partner\u201d).";
    }
    return false;
  }

  viewer.register({
    stepped: "#auction [data-step], #play [data-step], .partner-call [data-step]",
    render: function (s) {
      SEATS.forEach(function (seat) { renderSeat(seat, s); });
      renderTrick(s);
      renderBanner(s);
    },
    mark: mark,
    revealed: revealed,
    chartMark: chartMark,
    chartHidden: chartHidden,
    init: function () {
      var box = $("reveal");
      if (box) box.addEventListener("change", function () { reveal = box.checked; viewer.redraw(); });
    }
  });
})();
