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
    e.setAttribute("data-card", c);  // the card as the log writes it (studies mark it)
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

  // --- double-dummy analysis (the "analysis" toggle) -------------------------------------
  // Off by default (a spoiler) and remembered per browser. Only once it is ticked is the
  // analysis fetched (data-src: /g/<id>/analysis.json or /r/<code>/analysis.json): the page
  // holds none before. Cards are marked GIB style: "=" keeps the declarer side's makeable
  // tricks, "-1", "-2"... what a card costs; "\u00d7" a card the rules do not allow now.
  var ANALYSIS_KEY = "game-replay.analysis";
  var A = { on: false, data: null, loading: false, byStep: {}, byCard: {}, chart: null };
  function analysing() { return A.on && !!A.data; }
  function cost(entry, value) {
    var d = entry.side === "declarer" ? entry.before - value : value - entry.before;
    return d > 0 ? d : 0;
  }
  function ddMark(text, cls, title) {
    var m = el("span", "dd " + cls, text);
    if (title) m.title = title;
    return m;
  }
  function playedMark(entry) {
    if (!entry) return null;
    if (!entry.legal) return ddMark(entry.mark, "dd-loss dd-revoke", "not a legal card (" + (entry.loss ? "it cost " + entry.loss + ")" : "it cost nothing)"));
    return entry.loss > 0 ? ddMark(entry.mark, "dd-loss", entry.text) : ddMark("=", "dd-ok", "a best card: the count holds");
  }
  // the card the seat to act plays next: its position is the one shown at step s
  function nextEntry(s) { return analysing() ? A.byStep[s.i + 1] || null : null; }

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
        var entry = nextEntry(s);
        if (entry && entry.seat === seat && ranks.length) {
          var marked = el("span", "ranks marked");
          cards.filter(function (c) { return c.charAt(0) === suit; })
            .sort(function (a, b) { return RANKS.indexOf(b.charAt(1)) - RANKS.indexOf(a.charAt(1)); })
            .forEach(function (c) {
              var rk = el("span", "rk", rankText(c));
              rk.setAttribute("data-card", c);
              var value = entry.values[c];
              if (value === undefined) rk.appendChild(ddMark("\u00d7", "dd-illegal", "not a legal card now"));
              else {
                var lost = cost(entry, value);
                rk.appendChild(lost ? ddMark("-" + lost, "dd-loss", "costs " + lost + (lost === 1 ? " trick" : " tricks"))
                                    : ddMark("=", "dd-ok", "keeps the count"));
              }
              marked.appendChild(rk);
            });
          row.appendChild(marked);
        } else {
          // one element per card (data-card, for studies' marks), the same words as before
          var plain = el("span", "ranks");
          var suited = cards.filter(function (c) { return c.charAt(0) === suit; })
            .sort(function (a, b) { return RANKS.indexOf(b.charAt(1)) - RANKS.indexOf(a.charAt(1)); });
          if (!suited.length) plain.textContent = "\u2014";
          suited.forEach(function (c, k) {
            if (k) plain.appendChild(document.createTextNode(" "));
            var rk = el("span", null, rankText(c));
            rk.setAttribute("data-card", c);
            plain.appendChild(rk);
          });
          row.appendChild(plain);
        }
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
      var shown = cardEl(played, extra.trim());
      var m = analysing() ? playedMark(A.byCard[played]) : null;
      if (m) shown.appendChild(m);
      slot.replaceChildren(shown);
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

  // --- the analysis box: status, chart, mistakes; marks on the play table -----------------
  function status(text) { var e = $("analysis-status"); if (e) e.textContent = text; }

  function markPlayTable(on) {
    document.querySelectorAll("#play [data-step]").forEach(function (link) {
      var old = link.querySelector(".dd");
      if (old) old.parentNode.removeChild(old);
      if (!on) return;
      var m = playedMark(A.byStep[+link.getAttribute("data-step")]);
      if (m) link.appendChild(m);
    });
  }

  // the chart is server-drawn SVG (escaped there); it is parsed as an inert document, never run
  function buildChart(chart) {
    var figure = el("figure", "chart chart-svg analysis-chart");
    figure.id = "chart-analysis";
    figure.appendChild(el("figcaption", "chart-title", chart.title));
    var doc = new DOMParser().parseFromString("<div>" + chart.svg + "</div>", "text/html");
    Array.prototype.slice.call(doc.body.firstChild.childNodes).forEach(function (n) {
      figure.appendChild(document.importNode(n, true));
    });
    var svg = figure.querySelector("svg.svg-chart");
    A.chart = {
      svg: svg, cursor: svg.querySelector(".chart-mark"),
      marks: Array.prototype.slice.call(svg.querySelectorAll("[data-step]")).map(function (e) {
        return { el: e, step: +e.getAttribute("data-step") };
      }),
      x0: +svg.getAttribute("data-x0"), x1: +svg.getAttribute("data-x1"),
      px0: +svg.getAttribute("data-px0"), px1: +svg.getAttribute("data-px1")
    };
    return figure;
  }

  function buildBox(d) {
    var body = $("analysis-body");
    if (!body) return;
    var frag = document.createDocumentFragment();
    if (d.start !== null && d.start !== undefined) {
      var lost = d.mistakes || { declarer: 0, defenders: 0 };
      frag.appendChild(el("p", "analysis-summary", "With best play from the opening lead the declarer\u2019s side makes " +
        d.start + ". Tricks thrown away: declarer\u2019s side " + lost.declarer + ", defenders " + lost.defenders + "."));
    }
    if (d.chart) frag.appendChild(buildChart(d.chart));
    var mistakes = d.cards.filter(function (c) { return c.loss > 0; });
    if (mistakes.length) {
      var list = el("ol", "analysis-mistakes");
      list.id = "analysis-mistakes";
      mistakes.forEach(function (c) {
        var item = el("li");
        item.setAttribute("data-at", String(c.step));
        var link = el("a", "analysis-mistake", "step " + c.step + ": " + c.text);
        link.href = "#" + c.step;
        link.setAttribute("data-step", String(c.step));
        item.appendChild(link);
        list.appendChild(item);
      });
      frag.appendChild(el("h3", "analysis-h", "Mistakes"));
      frag.appendChild(list);
    } else if (d.cards.length) {
      frag.appendChild(el("p", "muted", "No card cost a trick."));
    }
    if (d.note) frag.appendChild(el("p", "analysis-note", d.note));
    body.replaceChildren(frag);
  }

  // the box follows the step: nothing after it shows unless the whole game is
  function drawAnalysis(s) {
    if (!analysing()) return;
    var whole = viewer.whole();
    document.querySelectorAll("#analysis-mistakes li").forEach(function (li) {
      li.hidden = !whole && +li.getAttribute("data-at") > s.i;
    });
    var c = A.chart;
    if (!c) return;
    c.marks.forEach(function (m) { m.el.classList.toggle("later", !whole && m.step > s.i); });
    var x = 0;
    A.data.cards.forEach(function (card) { if (card.step <= s.i) x += 1; });
    if (!A.data.cards.length || s.i < A.data.cards[0].step - 1) { c.cursor.setAttribute("visibility", "hidden"); return; }
    var scale = (c.px1 - c.px0) / ((c.x1 - c.x0) || 1);
    c.cursor.setAttribute("x", String(c.px0 + (x - c.x0) * scale - 1));
    c.cursor.setAttribute("width", "2");
    c.cursor.setAttribute("visibility", "visible");
  }

  function loaded(d) {
    A.data = d;
    A.byStep = {};
    A.byCard = {};
    d.cards.forEach(function (c) { A.byStep[c.step] = c; A.byCard[c.card] = c; });
    buildBox(d);
    status("");
    markPlayTable(A.on);
    viewer.redraw();
  }

  function loadAnalysis(src) {
    if (A.data || A.loading) return;
    A.loading = true;
    status("Working out every card\u2019s value (the first time takes a few seconds)\u2026");
    fetch(src, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) {
        if (r.ok) return r.json();
        // the server says why (rate limit, busy solver, no analysis): show its own words
        return r.json().then(function (d) { return d && d.error; }, function () { return null; })
          .then(function (why) { throw new Error(why || "the server answered " + r.status); });
      })
      .then(function (d) { A.loading = false; loaded(d); })
      .catch(function (e) { A.loading = false; status("The analysis could not be loaded: " + e.message + "."); });
  }

  // quiet: while the page starts (the stepper draws the first step itself)
  function setAnalysis(on, src, quiet) {
    A.on = on;
    var box = $("analysis-box");
    if (box) box.hidden = !on;
    document.documentElement.classList.toggle("analysis-on", on);
    if (on) loadAnalysis(src);
    markPlayTable(on && !!A.data);
    if (!quiet) viewer.redraw();
  }

  function stepText(s) {
    if (!analysing()) return s.x;
    var entry = A.byStep[s.i];
    var d = A.data;
    if (entry) return s.x + (entry.loss > 0 ? " \u2014 " + entry.text : " (=)");
    if (d.analysed_to !== null && d.analysed_to !== undefined && s.i > d.analysed_to && d.note) {
      return s.x + " \u2014 not analysed: " + d.note;
    }
    return s.x;
  }

  viewer.register({
    stepped: "#auction [data-step], #play [data-step], .partner-call [data-step]",
    render: function (s) {
      SEATS.forEach(function (seat) { renderSeat(seat, s); });
      renderTrick(s);
      renderBanner(s);
      drawAnalysis(s);
    },
    text: stepText,
    mark: mark,
    revealed: revealed,
    chartMark: chartMark,
    chartHidden: chartHidden,
    init: function () {
      var box = $("reveal");
      if (box) box.addEventListener("change", function () { reveal = box.checked; viewer.redraw(); });
      var toggle = $("analysis-toggle");
      if (toggle) {
        var src = toggle.getAttribute("data-src");
        var remembered = false;
        try { remembered = window.localStorage.getItem(ANALYSIS_KEY) === "1"; } catch (e) { remembered = false; }
        toggle.checked = remembered;
        toggle.addEventListener("change", function () {
          try { window.localStorage.setItem(ANALYSIS_KEY, toggle.checked ? "1" : "0"); } catch (e) { /* this page only */ }
          setAnalysis(toggle.checked, src);
        });
        if (remembered) setAnalysis(true, src, true);
      }
      var abox = $("analysis-box");
      if (abox) abox.addEventListener("click", function (ev) {
        var target = ev.target.closest ? ev.target.closest("svg [data-step]") : null;
        if (!target || target.classList.contains("later")) return;
        viewer.go(+target.getAttribute("data-step"));
      });
    }
  });
})();
