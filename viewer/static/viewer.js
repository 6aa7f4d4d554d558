/* Step through a floating bridge game. Reads the per-step JSON embedded in the page
   (<script type="application/json" id="replay-data">); needs no requests of its own.
   Keys: left/right one step, up/down one trick, Home/End, Space play/pause.
   The URL fragment (#<step>) follows the position. Every name is written with textContent. */
(function () {
  "use strict";
  var dataEl = document.getElementById("replay-data");
  if (!dataEl) return;
  var D = JSON.parse(dataEl.textContent);
  var steps = D.steps, G = D.game, last = steps.length - 1;
  var SEATS = ["N", "E", "S", "W"];
  var FULL = { N: "North", E: "East", S: "South", W: "West" };
  var SYM = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var SUIT_WORD = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  var RANKS = "23456789TJQKA";
  var state = {
    step: last,
    perspective: D.initial.perspective || "all",
    reveal: !!D.initial.reveal,
    timer: null,
    speed: 1000
  };
  var listeners = [];

  // trick boundaries: the steps that finish a trick, and the step before the first card
  var trickEnds = [], firstPlay = null;
  steps.forEach(function (s) {
    if (s.w) trickEnds.push(s.i);
    if (s.k === "play" && firstPlay === null) firstPlay = s.i;
  });
  var findingsAt = {};
  (G.findings || []).forEach(function (f) { (findingsAt[f.step] = findingsAt[f.step] || []).push(f); });

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function rankText(c) { return c.charAt(1) === "T" ? "10" : c.charAt(1); }
  function cardEl(c, extra) {
    var suit = c.charAt(0);
    var e = el("span", "card" + (suit === "H" || suit === "D" ? " red" : "") + (extra ? " " + extra : ""));
    var sym = el("span", "sym", SYM[suit]);
    e.appendChild(sym);
    e.appendChild(document.createTextNode(rankText(c)));
    return e;
  }
  function cardWords(c) { return SYM[c.charAt(0)] + rankText(c); }

  function revealed(s) {
    return state.reveal || s.pr || (state.perspective !== "all" && state.perspective === G.partner_seat);
  }

  function renderHand(seat, s) {
    var box = document.querySelector('[data-hand="' + seat + '"]');
    if (!box) return;
    var cards = s.h[SEATS.indexOf(seat)];
    var frag = document.createDocumentFragment();
    if (state.perspective === "all" || state.perspective === seat) {
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
    if (G.declarer === seat) frag.appendChild(el("span", "role decl", "Declarer"));
    if (G.partner_seat === seat && G.partner_seat !== G.declarer && revealed(s)) {
      frag.appendChild(el("span", "role partner", "Partner"));
    }
    roles.replaceChildren(frag);
    var count = box.querySelector("[data-count]");
    count.textContent = String(s.tw[SEATS.indexOf(seat)]);
    renderHand(seat, s);
  }

  function renderTrick(s) {
    var box = $("trick");
    var frag = document.createDocumentFragment();
    s.tr.forEach(function (pair, n) {
      var slot = el("div", "played p-" + pair[0]);
      var extra = (s.w && s.w === pair[0] ? "won" : "") + (n === 0 ? " lead" : "");
      slot.appendChild(cardEl(pair[1], extra.trim()));
      frag.appendChild(slot);
    });
    box.replaceChildren(frag);
  }

  function renderBanner(s) {
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

  function renderFindings(s) {
    var box = $("step-findings");
    if (!box) return;
    var frag = document.createDocumentFragment();
    (findingsAt[s.i] || []).forEach(function (f) {
      frag.appendChild(el("p", "finding" + (f.fatal ? " fatal" : ""), "\u26a0 " + f.message));
    });
    box.replaceChildren(frag);
  }

  // Cards and calls not reached yet stay clickable but dimmed, and a trick's winner stays
  // hidden until its last card falls, so stepping never gives the result away.
  var stepped = Array.prototype.slice.call(document.querySelectorAll("#auction [data-step], #play [data-step], .partner-call [data-step]"));
  var playRows = Array.prototype.slice.call(document.querySelectorAll("#play tbody tr")).map(function (row) {
    var last = -1;
    row.querySelectorAll("[data-step]").forEach(function (e) { last = Math.max(last, +e.getAttribute("data-step")); });
    return { row: row, last: last };
  });
  function markFuture(i) {
    stepped.forEach(function (e) { e.classList.toggle("future", +e.getAttribute("data-step") > i); });
    playRows.forEach(function (r) { r.row.classList.toggle("unfinished", r.last > i); });
  }

  var current = [];
  function markCurrent(i) {
    markFuture(i);
    current.forEach(function (e) { e.classList.remove("current"); e.removeAttribute("aria-current"); });
    current = Array.prototype.slice.call(document.querySelectorAll('#auction [data-step="' + i + '"], #play [data-step="' + i + '"], .partner-call [data-step="' + i + '"]'));
    current.forEach(function (e) { e.classList.add("current"); e.setAttribute("aria-current", "step"); });
    var rows = document.querySelectorAll("#play tbody tr");
    var s = steps[i];
    var tn = s.k === "play" || s.ph === "play" || s.ph === "over" ? s.tn : 0;
    for (var r = 0; r < rows.length; r++) rows[r].classList.toggle("current-trick", r + 1 === tn && s.tr.length > 0);
  }

  function render(i, announce) {
    var s = steps[i];
    state.step = i;
    SEATS.forEach(function (seat) { renderSeat(seat, s); });
    renderTrick(s);
    renderBanner(s);
    renderFindings(s);
    $("step-no").textContent = String(i);
    $("step-words").textContent = s.x;
    markCurrent(i);
    var buttons = document.querySelectorAll("[data-go]");
    for (var b = 0; b < buttons.length; b++) {
      var go = buttons[b].getAttribute("data-go");
      if (go === "play") continue;
      var atStart = (go === "start" || go === "prev" || go === "prev-trick") && i === 0;
      var atEnd = (go === "end" || go === "next" || go === "next-trick") && i === last;
      buttons[b].disabled = atStart || atEnd;
    }
    if (announce) $("live").textContent = s.x;
    if (location.hash !== "#" + i) history.replaceState(null, "", "#" + i);
    listeners.forEach(function (fn) { try { fn(i, s); } catch (e) { /* a chart must not stop stepping */ } });
  }

  function go(i, announce) {
    i = Math.max(0, Math.min(last, i | 0));
    render(i, announce !== false);
  }
  function nextTrick(i) {
    for (var n = 0; n < trickEnds.length; n++) if (trickEnds[n] > i) return trickEnds[n];
    return last;
  }
  function prevTrick(i) {
    for (var n = trickEnds.length - 1; n >= 0; n--) if (trickEnds[n] < i) return trickEnds[n];
    if (firstPlay !== null && i > firstPlay - 1) return firstPlay - 1;
    return 0;
  }

  function setPlaying(on) {
    var button = document.querySelector('[data-go="play"]');
    if (state.timer) { clearInterval(state.timer); state.timer = null; }
    if (on) {
      if (state.step >= last) go(0);
      state.timer = setInterval(function () {
        if (state.step >= last) { setPlaying(false); return; }
        go(state.step + 1);
      }, state.speed);
    }
    if (button) {
      button.textContent = on ? "\u275a\u275a" : "\u25b6";
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.setAttribute("aria-label", on ? "Pause" : "Play");
      document.documentElement.classList.toggle("playing", !!on);
    }
  }

  function act(what) {
    var i = state.step;
    if (what !== "play") setPlaying(false);
    switch (what) {
      case "start": go(0); break;
      case "end": go(last); break;
      case "prev": go(i - 1); break;
      case "next": go(i + 1); break;
      case "prev-trick": go(prevTrick(i)); break;
      case "next-trick": go(nextTrick(i)); break;
      case "play": setPlaying(!state.timer); break;
    }
  }

  function stepFromHash() {
    var m = /^#(\d{1,5})$/.exec(location.hash);
    return m ? Math.min(last, parseInt(m[1], 10)) : null;
  }

  // --- wiring -----------------------------------------------------------------------------
  $("controls").hidden = false;
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest ? ev.target.closest("[data-go]") : null;
    if (button) { act(button.getAttribute("data-go")); return; }
    var link = ev.target.closest ? ev.target.closest("a[data-step]") : null;
    if (link) {
      ev.preventDefault();
      setPlaying(false);
      go(parseInt(link.getAttribute("data-step"), 10));
    }
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var t = ev.target, tag = t && t.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
    var map = { ArrowLeft: "prev", ArrowRight: "next", ArrowUp: "prev-trick", ArrowDown: "next-trick",
                Home: "start", End: "end", " ": "play", Spacebar: "play" };
    var what = map[ev.key];
    if (!what) return;
    if (what === "play" && tag === "BUTTON") return; // a focused button handles Space itself
    ev.preventDefault();
    act(what);
  });
  window.addEventListener("hashchange", function () {
    var i = stepFromHash();
    if (i !== null && i !== state.step) go(i);
  });
  var speed = $("speed");
  if (speed) speed.addEventListener("change", function () {
    state.speed = parseInt(speed.value, 10) || 1000;
    if (state.timer) setPlaying(true);
  });
  var perspective = $("perspective"), reveal = $("reveal");
  if (perspective) perspective.addEventListener("change", function () { state.perspective = perspective.value; go(state.step, false); });
  if (reveal) reveal.addEventListener("change", function () { state.reveal = reveal.checked; go(state.step, false); });
  var options = $("options");
  if (options) options.addEventListener("submit", function (ev) { ev.preventDefault(); });

  // sharing: copy buttons and the embed snippet
  Array.prototype.forEach.call(document.querySelectorAll("[data-copy]"), function (b) {
    b.hidden = false;
    b.addEventListener("click", function () {
      var field = $(b.getAttribute("data-copy"));
      var text = field.value;
      if (field.id === "share-link") text = text.replace(/#.*$/, "") + "#" + state.step;
      var done = function () { var old = b.textContent; b.textContent = "Copied"; setTimeout(function () { b.textContent = old; }, 1500); };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, function () { field.select(); });
      else { field.select(); document.execCommand("copy"); done(); }
    });
  });
  var embedButton = $("embed-button"), embedBox = $("embed-box");
  if (embedButton && embedBox) {
    embedButton.hidden = false;
    embedBox.hidden = true;
    embedButton.addEventListener("click", function () {
      embedBox.hidden = !embedBox.hidden;
      embedButton.setAttribute("aria-expanded", embedBox.hidden ? "false" : "true");
    });
  }

  window.GameViewer = {
    steps: steps, game: G, last: last,
    get step() { return state.step; },
    go: function (i) { setPlaying(false); go(i); },
    onStep: function (fn) { listeners.push(fn); },
    playing: function () { return !!state.timer; },
    revealed: function () { return revealed(steps[state.step]); }
  };

  var start = stepFromHash();
  if (start === null) start = D.initial.step !== null && D.initial.step !== undefined ? D.initial.step : 0;
  render(Math.min(last, start), false);
  if (stepFromHash() === null) history.replaceState(null, "", location.pathname + location.search);
  document.documentElement.classList.add("js-ready");

  // charts come after the board: plotly.js (large) loads once the page is idle
  var charts = $("charts");
  if (charts && charts.getAttribute("data-script")) {
    var load = function () {
      var s = document.createElement("script");
      s.src = charts.getAttribute("data-script");
      s.async = true;
      document.body.appendChild(s);
    };
    if (document.readyState === "complete") setTimeout(load, 0);
    else window.addEventListener("load", function () { setTimeout(load, 0); });
  }
})();
