/* Party Cards' board: for each step the stepper (stepper.js) shows, the round and its czar,
   the question, the submissions as the page's view saw them (filled in, in the czar's order
   once revealed, anonymous until the pick in a seat's view), the scores and the hands the
   view may see. Every text is written with textContent. The page embeds only what its view
   could see (viewer/games/party_cards/view.py): changing the view loads that view's page.
   Compact steps: k kind, s seat, x text, r round, cz czar, q question (text index), qp pick,
   blank the question's segments, an answered seats, rv revealed, sub submissions (n number,
   s seat or null, m mine, w won, g segments [text index, 0 text / 1 answer / 2 open blank]),
   ch choice, rw round winner, sc scores, st status, h hands (text indices or null), hs hand
   sizes, c drawn cards, ta to act, w winner. Texts are in game.texts.
   Links: #round-N opens at round N's pick (its last step without a pick), as does the page's
   ?round=N without a step in the fragment. */
(function () {
  "use strict";
  var viewer = window.GameViewer;
  if (!viewer || !viewer.register) return;
  var G = viewer.game, el = viewer.el, last = viewer.last;
  var SEATS = G.seats, T = G.texts, NAMES = G.names, ROUNDS = G.rounds || [];

  function $(id) { return document.getElementById(id); }
  function nameOf(seat) { return seat === null || seat === undefined ? "" : (NAMES[seat] || seat); }
  function segmentsInto(parent, list) {
    (list || []).forEach(function (g) {
      var text = T[g[0]];
      if (g[1] === 1) parent.appendChild(el("mark", "party-answer", text));
      else if (g[1] === 2) parent.appendChild(el("span", "party-blank", text));
      else parent.appendChild(document.createTextNode(text));
    });
    return parent;
  }
  // an answer card; data-card is its id as the log writes it when the step carries the ids of
  // the cards this view holds (hid: each hand's, parallel to h; cid: the drawn ones, parallel
  // to c). Submissions carry none: before the pick an id could tell who wrote an answer.
  function cardEl(t, id) {
    var e = el("span", "party-card", T[t]);
    if (id) e.setAttribute("data-card", id);
    return e;
  }
  function roundStep(n) {
    for (var k = 0; k < ROUNDS.length; k++) if (ROUNDS[k].n === n) return ROUNDS[k].open;
    return null;
  }
  function roundFromHash() {
    var m = /^#round-(\d{1,6})$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : null;
  }
  function pageQuery(extra) {
    var q = G.query ? G.query + "&" : "";
    return "?" + q + extra;
  }

  function submissionEl(sub) {
    var li = el("li", "party-submission white-card" + (sub.w ? " won" : "") + (sub.m ? " mine" : ""));
    var head = el("div", "party-sub-head");
    head.appendChild(el("span", "party-sub-label", sub.n ? "Answer " + sub.n : "Answer"));
    head.appendChild(document.createTextNode(" "));
    var author = sub.s !== null ? nameOf(sub.s) : (sub.n ? "anonymous" : "");
    head.appendChild(el("span", "party-author", author + (sub.m ? " (yours)" : "")));
    if (sub.w) { head.appendChild(document.createTextNode(" ")); head.appendChild(el("span", "party-won", "\u2605 picked")); }
    li.appendChild(head);
    li.appendChild(segmentsInto(el("p", "party-filled"), sub.g));
    return li;
  }

  function renderScores(s) {
    SEATS.forEach(function (seat, n) {
      var row = document.querySelector('#party-scores tr[data-seat="' + CSS.escape(seat) + '"]');
      if (!row) return;
      var answered = s.an.indexOf(seat) >= 0;
      row.classList.toggle("czar", s.cz === seat);
      row.classList.toggle("to-act", s.ta === seat);
      row.querySelector("[data-score]").textContent = String(s.sc[n]);
      row.querySelector("[data-status]").textContent = s.st[n];
      row.querySelector("[data-size]").textContent = String(s.hs[n]);
      row.querySelector("[data-role]").textContent = s.cz === seat && s.r ? "czar" : (answered ? "answered" : "");
    });
  }

  function renderHands(s) {
    var frag = document.createDocumentFragment();
    SEATS.forEach(function (seat, n) {
      var hand = s.h[n];
      if (hand === null || hand === undefined) return;
      var box = el("div", "party-hand");
      box.setAttribute("data-hand", seat);
      box.setAttribute("data-seat", seat);  // the seat as the log writes it (studies mark it)
      box.appendChild(el("span", "party-hand-name", nameOf(seat)));
      var cards = el("span", "party-hand-cards");
      var ids = (s.hid && s.hid[n]) || [];
      if (hand.length) hand.forEach(function (t, k) { cards.appendChild(cardEl(t, ids[k])); });
      else cards.appendChild(el("span", "muted", "no cards"));
      box.appendChild(cards);
      frag.appendChild(box);
    });
    $("party-hands").replaceChildren(frag);
  }

  var resultRows = Array.prototype.slice.call(document.querySelectorAll("#party-rounds tr[data-round]"));

  function render(s) {
    var inRound = s.r > 0;
    $("party-round-head").hidden = !inRound;
    $("party-lobby").hidden = inRound;
    if (inRound) {
      $("party-round").textContent = "Round " + s.r;
      $("party-czar").textContent = nameOf(s.cz);
    }
    var question = $("party-question");
    question.hidden = s.q === null;
    if (s.q !== null) {
      var p = segmentsInto(el("p"), s.blank);
      question.replaceChildren(p, el("span", "party-pick muted", "pick " + s.qp));
    }
    $("party-answered").textContent = inRound && s.an.length ? "Answered: " + s.an.map(nameOf).join(", ") : "";
    var subs = document.createDocumentFragment();
    s.sub.forEach(function (sub) { subs.appendChild(submissionEl(sub)); });
    $("party-submissions").replaceChildren(subs);
    var drawn = $("party-drawn");
    drawn.hidden = !(s.c && s.c.length);
    var cards = document.createDocumentFragment();
    (s.c || []).forEach(function (t, k) { cards.appendChild(cardEl(t, (s.cid || [])[k])); });
    $("party-drawn-cards").replaceChildren(cards);
    renderScores(s);
    renderHands(s);

    var share = $("party-share");
    share.hidden = !inRound;
    if (inRound) {
      $("party-share-round").textContent = String(s.r);
      $("party-round-link").setAttribute("href", G.path + pageQuery("round=" + s.r) + "#round-" + s.r);
      $("party-round-svg").setAttribute("href", G.path + "/round/" + s.r + ".svg" + (G.query ? "?" + G.query : ""));
    }
    // the record names each round's winner: hidden until the step that shows the pick
    resultRows.forEach(function (row) {
      var at = roundStep(parseInt(row.getAttribute("data-round"), 10));
      var future = at === null || at > s.i;
      Array.prototype.forEach.call(row.querySelectorAll(".party-result"), function (cell) { cell.hidden = future; });
    });
    var outcome = $("outcome");
    if (outcome) outcome.textContent = banner(s);
  }

  // the banner says where the game stands at every step: the result at the end, else who is to
  // act, else what the table is waiting for (the lobby, the answers, the czar's reading, the
  // round's winner)
  function banner(s) {
    if (s.i === last) {
      return G.winners && G.winners.length ? G.winners.map(nameOf).join(", ") + " won" : "Ended: " + String(G.end || "").replace(/_/g, " ");
    }
    if (s.ta) return nameOf(s.ta) + (s.ta === s.cz && s.rv ? " picks" : " to act");
    if (!(s.r > 0)) {
      var joined = s.st.filter(function (st) { return st !== "invited"; }).length;
      return "Lobby: " + joined + " of " + SEATS.length + " joined, waiting for round 1";
    }
    if (s.rw) return nameOf(s.rw) + " won round " + s.r;
    if (s.ch !== null && s.ch !== undefined) return "Round " + s.r + ": answer " + s.ch + " picked";
    if (s.rv) return "Round " + s.r + ": " + nameOf(s.cz) + " reads the answers";
    return "Round " + s.r + ": " + s.an.length + " answer" + (s.an.length === 1 ? "" : "s") + " in";
  }

  // the score race's x is the number of rounds finished
  function chartMark(chart, s) {
    if (chart.mark !== "round") return undefined;
    var n = 0;
    ROUNDS.forEach(function (r) { if (r.open <= s.i) n = r.n; });
    return n;
  }

  function init(v) {
    // #round-N (or ?round=N with no step in the fragment) opens at that round's pick: the
    // stepper reads #<step>, so the fragment is rewritten before it does
    var n = roundFromHash();
    if (n === null && !/^#\d{1,5}$/.test(location.hash)) n = viewer.data.round_link;
    var at = n === null || n === undefined ? null : roundStep(n);
    if (at !== null) history.replaceState(null, "", location.pathname + location.search + "#" + at);
    window.addEventListener("hashchange", function () {
      var r = roundFromHash(), step = r === null ? null : roundStep(r);
      if (step !== null) v.go(step);
    });
    // a seat's view is a page of its own (it embeds only what that seat saw)
    var select = $("perspective");
    if (select) select.addEventListener("change", function () {
      // the names (players=) are kept as written: URLSearchParams would merge them
      var query = viewer.editQuery(location.search, { step: null, round: null, view: select.value === "all" ? null : select.value });
      // the address bar may show this view already (stepper.js keeps it there): load it anew
      history.replaceState(null, "", location.pathname + query + "#" + v.step);
      location.reload();
    });
  }

  viewer.register({
    stepped: "#party-rounds [data-step]",
    render: render,
    chartMark: chartMark,
    init: init
  });
})();
