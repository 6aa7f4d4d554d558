/* Step through a game, any game. Reads the per-step JSON embedded in the page
   (<script type="application/json" id="replay-data">); needs no requests of its own.
   The game's board script (games/<game>/board.js, loaded after this one) draws each step: it
   calls GameViewer.register({render: function (step, viewer) {...}, ...}) and stepping starts.
   Keys: left/right one step, up/down one chapter (bridge: a trick; UNO: a turn; the page's
   data lists where chapters end), Home/End, Space play/pause. The URL fragment (#<step>)
   follows the position. Boards write names with textContent only.

   A board may define: render(s, viewer) (required), text(s, viewer) (the step's words;
   default s.x), stepped (a selector of the record's [data-step] links, dimmed when not reached
   yet and marked when current), mark(i, s, viewer) (more marks), revealed(s, viewer),
   chartMark(chart, s) / chartHidden(chart, s) (for charts.js), init(viewer). */
(function () {
  "use strict";
  var dataEl = document.getElementById("replay-data");
  if (!dataEl) return;
  var D = JSON.parse(dataEl.textContent);
  var steps = D.steps, G = D.game, last = steps.length - 1;
  var chapters = D.chapters || { ends: [], before: null };
  var ends = chapters.ends || [];
  var state = {
    step: last,
    perspective: D.initial.perspective || "all",
    timer: null,
    speed: 1000
  };
  var listeners = [];
  var board = null;
  var findingsAt = {};
  (G.findings || []).forEach(function (f) { (findingsAt[f.step] = findingsAt[f.step] || []).push(f); });

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function textOf(s) { return board && board.text ? board.text(s, viewer) : s.x; }

  function renderFindings(s) {
    var box = $("step-findings");
    if (!box) return;
    var frag = document.createDocumentFragment();
    (findingsAt[s.i] || []).forEach(function (f) {
      frag.appendChild(el("p", "finding" + (f.fatal ? " fatal" : ""), "\u26a0 " + f.message));
    });
    box.replaceChildren(frag);
  }

  // The record's links not reached yet stay clickable but dimmed, so stepping never gives the
  // result away; the current step's links are marked.
  var stepped = [], current = [];
  function markCurrent(i, s) {
    stepped.forEach(function (e) { e.classList.toggle("future", +e.getAttribute("data-step") > i); });
    current.forEach(function (e) { e.classList.remove("current"); e.removeAttribute("aria-current"); });
    current = stepped.filter(function (e) { return +e.getAttribute("data-step") === i; });
    current.forEach(function (e) { e.classList.add("current"); e.setAttribute("aria-current", "step"); });
    if (board.mark) board.mark(i, s, viewer);
  }

  function render(i, announce) {
    var s = steps[i];
    state.step = i;
    board.render(s, viewer);
    renderFindings(s);
    var words = textOf(s);
    $("step-no").textContent = String(i);
    $("step-words").textContent = words;
    markCurrent(i, s);
    var buttons = document.querySelectorAll("[data-go]");
    for (var b = 0; b < buttons.length; b++) {
      var go = buttons[b].getAttribute("data-go");
      if (go === "play") continue;
      var atStart = (go === "start" || go === "prev" || go === "prev-chapter") && i === 0;
      var atEnd = (go === "end" || go === "next" || go === "next-chapter") && i === last;
      buttons[b].disabled = atStart || atEnd;
    }
    if (announce) $("live").textContent = words;
    if (location.hash !== "#" + i) history.replaceState(null, "", "#" + i);
    listeners.forEach(function (fn) { try { fn(i, s); } catch (e) { /* a chart must not stop stepping */ } });
  }

  function go(i, announce) {
    i = Math.max(0, Math.min(last, i | 0));
    render(i, announce !== false);
  }
  function nextChapter(i) {
    for (var n = 0; n < ends.length; n++) if (ends[n] > i) return ends[n];
    return last;
  }
  function prevChapter(i) {
    for (var n = ends.length - 1; n >= 0; n--) if (ends[n] < i) return ends[n];
    var before = chapters.before;
    if (before !== null && before !== undefined && i > before) return before;
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
      case "prev-chapter": go(prevChapter(i)); break;
      case "next-chapter": go(nextChapter(i)); break;
      case "play": setPlaying(!state.timer); break;
    }
  }

  function stepFromHash() {
    var m = /^#(\d{1,5})$/.exec(location.hash);
    return m ? Math.min(last, parseInt(m[1], 10)) : null;
  }

  function wire() {
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
      var map = { ArrowLeft: "prev", ArrowRight: "next", ArrowUp: "prev-chapter", ArrowDown: "next-chapter",
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
    var perspective = $("perspective");
    if (perspective) perspective.addEventListener("change", function () { state.perspective = perspective.value; go(state.step, false); });
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
  }

  // charts come after the board: plotly.js (large) loads once the page is idle
  function loadCharts() {
    var charts = $("charts");
    if (!charts || !charts.getAttribute("data-script")) return;
    var load = function () {
      var s = document.createElement("script");
      s.src = charts.getAttribute("data-script");
      s.async = true;
      document.body.appendChild(s);
    };
    if (document.readyState === "complete") setTimeout(load, 0);
    else window.addEventListener("load", function () { setTimeout(load, 0); });
  }

  function start(b) {
    if (board) return;
    board = b;
    stepped = board.stepped ? Array.prototype.slice.call(document.querySelectorAll(board.stepped)) : [];
    wire();
    if (board.init) board.init(viewer);
    var first = stepFromHash();
    if (first === null) first = D.initial.step !== null && D.initial.step !== undefined ? D.initial.step : 0;
    render(Math.min(last, first), false);
    if (stepFromHash() === null) history.replaceState(null, "", location.pathname + location.search);
    document.documentElement.classList.add("js-ready");
    loadCharts();
  }

  var viewer = {
    steps: steps, game: G, last: last, data: D, findingsAt: findingsAt, el: el,
    get step() { return state.step; },
    get perspective() { return state.perspective; },
    get board() { return board; },
    go: function (i) { setPlaying(false); go(i); },
    redraw: function () { go(state.step, false); },
    onStep: function (fn) { listeners.push(fn); },
    playing: function () { return !!state.timer; },
    revealed: function () { return board && board.revealed ? !!board.revealed(steps[state.step], viewer) : true; },
    register: start
  };
  window.GameViewer = viewer;
})();
