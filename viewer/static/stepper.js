/* Step through a game, any game. Reads the per-step JSON embedded in the page
   (<script type="application/json" id="replay-data">); needs no requests of its own.
   The game's board script (games/<game>/board.js, loaded after this one) draws each step: it
   calls GameViewer.register({render: function (step, viewer) {...}, ...}) and stepping starts.
   Keys: left/right one step, up/down one chapter (bridge: a trick; UNO: a turn; the page's
   data lists where chapters end), Home/End, Space play/pause. The URL fragment (#<step>)
   follows the position. Boards write names with textContent only.

   On the board itself (#board), a tap steps forward and a swipe steps either way.

   Nothing after the current step is shown unless the reader ticks "show the whole game"
   (#whole-game, remembered in localStorage; viewer.whole() tells boards): the record's links
   not reached yet are hidden (a table row with nothing reached yet is hidden whole).

   A board may define: render(s, viewer) (required), text(s, viewer) (the step's words;
   default s.x), stepped (a selector of the record's [data-step] links, hidden when not reached
   yet and marked when current), mark(i, s, viewer) (more marks), revealed(s, viewer),
   chartMark(chart, s) / chartHidden(chart, s) (for charts.js), init(viewer).

   In an embed (body.page-embed inside another page's iframe) the page tells its parent how
   tall it is ({type: "game-replay:height", height}) whenever that changes, for embed.js. */
(function () {
  "use strict";
  var dataEl = document.getElementById("replay-data");
  if (!dataEl) return;
  var D = JSON.parse(dataEl.textContent);
  D.steps = fullSteps(D.steps);
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

  // The page sends its steps as changes (viewer/view.py, step_changes): the first step whole,
  // then for each step a list of [path, value] (set the value at path, a list of keys and
  // indices) and [path] (remove that key) against the step before. The boards get whole steps;
  // a change copies only what it goes through, so earlier steps stay as they were.
  function fullSteps(sent) {
    var out = [];
    for (var n = 0; n < sent.length; n++) {
      if (n === 0) { out.push(sent[0]); continue; }
      var root = { step: out[n - 1] };
      sent[n].forEach(function (change) {
        var keys = ["step"].concat(change[0]), node = root;
        for (var k = 0; k < keys.length - 1; k++) {
          var child = node[keys[k]];
          var copy = Array.isArray(child) ? child.slice() : Object.assign({}, child);
          node[keys[k]] = copy;
          node = copy;
        }
        if (change.length > 1) node[keys[keys.length - 1]] = change[1];
        else delete node[keys[keys.length - 1]];
      });
      out.push(root.step);
    }
    return out;
  }
  var WHOLE_KEY = "game-replay.whole-game";
  var whole = false;
  try { whole = window.localStorage.getItem(WHOLE_KEY) === "1"; } catch (e) { whole = false; }
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

  // The record's links not reached yet are hidden (dimmed, and still clickable, when the whole
  // game is shown), so stepping never gives the result away; rows with nothing reached yet are
  // hidden whole; the current step's links are marked.
  var stepped = [], current = [], rows = [];
  function markCurrent(i, s) {
    stepped.forEach(function (e) { e.classList.toggle("future", +e.getAttribute("data-step") > i); });
    rows.forEach(function (r) { r.row.classList.toggle("future-row", r.first > i); });
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
    pictureLink();
    document.documentElement.classList.toggle("at-end", i === last);
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
      if (what === "play" && (tag === "BUTTON" || tag === "SUMMARY")) return; // a focused button (or a <details>' summary) handles Space itself
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
    if (perspective) perspective.addEventListener("change", function () {
      state.perspective = perspective.value;
      go(state.step, false);
      history.replaceState(null, "", shareLink(location.href));  // the address bar keeps the view, as the share link does
    });
    var options = $("options");
    if (options) options.addEventListener("submit", function (ev) { ev.preventDefault(); });

    // sharing: copy buttons and the embed snippet
    Array.prototype.forEach.call(document.querySelectorAll("[data-copy]"), function (b) {
      b.hidden = false;
      b.addEventListener("click", function () {
        var field = $(b.getAttribute("data-copy"));
        var text = field.value;
        if (field.id === "share-link") text = shareLink(text);
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

  // the page's link with what the reader is looking at: the view (perspective), the board's
  // ticked options (reveal partner...) and the step
  function shareLink(text) {
    var base = text.replace(/#.*$/, ""), cut = base.indexOf("?");
    var path = cut < 0 ? base : base.slice(0, cut), changes = { view: null };
    if (state.perspective && state.perspective !== "all") changes.view = state.perspective;
    var options = $("options");
    if (options) {
      Array.prototype.forEach.call(options.querySelectorAll("input[type=checkbox][name]"), function (box) {
        changes[box.name] = box.checked ? (box.value || "1") : null;
      });
    }
    return path + editQuery(cut < 0 ? "" : base.slice(cut), changes) + "#" + state.step;
  }

  // the share box's "picture" link (#picture-link, beside "Copy link"): the PNG of the current
  // step from the current view (a view the pictures do not offer, data-views, is left out)
  function pictureLink() {
    var a = $("picture-link");
    if (!a) return;
    var base = a.getAttribute("data-base") || "", cut = base.indexOf("?");
    var views = (a.getAttribute("data-views") || "").split(" ");
    // "all" (every card open) is a step's picture's own default, as it is the page's
    var view = state.perspective && state.perspective !== "all" && views.indexOf(state.perspective) >= 0 ? state.perspective : null;
    a.href = (cut < 0 ? base : base.slice(0, cut)) +
      editQuery(cut < 0 ? "" : base.slice(cut), { step: String(state.step), view: view });
  }

  // a query string ("?a=1&b=2" or "") with the parameters of `changes` set (or, null, removed);
  // every other parameter is kept exactly as written: URLSearchParams would decode the names'
  // escaped commas (players=Ann,Bo%2C%20Jr) into the commas between names
  function editQuery(search, changes) {
    var parts = String(search || "").replace(/^\?/, "").split("&").filter(function (p) {
      return p && !Object.prototype.hasOwnProperty.call(changes, p.split("=")[0]);
    });
    Object.keys(changes).forEach(function (key) {
      var value = changes[key];
      if (value !== null && value !== undefined) parts.push(encodeURIComponent(key) + "=" + encodeURIComponent(value));
    });
    return parts.length ? "?" + parts.join("&") : "";
  }

  // the board: a tap steps forward, a swipe left or right steps (pointer events; the board lets
  // the page scroll up and down, touch-action: pan-y pinch-zoom, so zooming still works)
  function wireBoard() {
    var boardEl = $("board");
    if (!boardEl || !window.PointerEvent) return;
    var down = null;
    boardEl.addEventListener("pointerdown", function (ev) {
      if (ev.pointerType === "mouse" || !ev.isPrimary) { down = null; return; }
      down = { x: ev.clientX, y: ev.clientY, t: Date.now() };
    });
    boardEl.addEventListener("pointercancel", function () { down = null; });
    boardEl.addEventListener("pointerup", function (ev) {
      if (!down) return;
      var dx = ev.clientX - down.x, dy = ev.clientY - down.y, dt = Date.now() - down.t;
      down = null;
      var onControl = ev.target.closest && ev.target.closest("a, button, input, select, label, summary");
      if (Math.abs(dx) >= 40 && Math.abs(dx) > 1.5 * Math.abs(dy)) {
        act(dx < 0 ? "next" : "prev");
      } else if (Math.abs(dx) < 10 && Math.abs(dy) < 10 && dt < 600 && !onControl) {
        act("next");
      }
    });
  }

  // an embed tells the page around it how tall it is (embed.js sizes the iframe)
  function reportHeight() {
    if (window.parent === window || !document.body.classList.contains("page-embed")) return;
    var sent = 0;
    var send = function () {
      var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height === sent) return;
      sent = height;
      window.parent.postMessage({ type: "game-replay:height", height: height, href: location.href }, "*");
    };
    if (window.ResizeObserver) new ResizeObserver(send).observe(document.body);
    document.addEventListener("toggle", send, true);
    window.addEventListener("load", send);
    send();
  }

  function wireWhole() {
    var box = $("whole-game");
    document.documentElement.classList.toggle("whole-game", whole);
    if (!box) return;
    box.checked = whole;
    box.addEventListener("change", function () {
      whole = box.checked;
      try { window.localStorage.setItem(WHOLE_KEY, whole ? "1" : "0"); } catch (e) { /* this page only */ }
      document.documentElement.classList.toggle("whole-game", whole);
      go(state.step, false);
    });
  }

  function start(b) {
    if (board) return;
    board = b;
    stepped = board.stepped ? Array.prototype.slice.call(document.querySelectorAll(board.stepped)) : [];
    var byRow = [];
    stepped.forEach(function (e) {
      var row = e.closest ? e.closest("tr") : null;
      if (!row) return;
      var at = +e.getAttribute("data-step");
      var found = byRow.filter(function (r) { return r.row === row; })[0];
      if (found) found.first = Math.min(found.first, at);
      else byRow.push({ row: row, first: at });
    });
    rows = byRow;
    wire();
    wireWhole();
    wireBoard();
    if (board.init) board.init(viewer);
    var first = stepFromHash();
    if (first === null) first = D.initial.step !== null && D.initial.step !== undefined ? D.initial.step : 0;
    render(Math.min(last, first), false);
    if (stepFromHash() === null) history.replaceState(null, "", location.pathname + location.search);
    document.documentElement.classList.add("js-ready");
    if (window.performance && performance.mark) performance.mark("board-ready");  // for bench/viewer.py
    reportHeight();
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
    whole: function () { return whole; },
    revealed: function () { return board && board.revealed ? !!board.revealed(steps[state.step], viewer) : true; },
    register: start,
    editQuery: editQuery
  };
  window.GameViewer = viewer;
})();
