/* Studies: notes, glyphs, marks and what-if branches over the replay stepper (stepper.js).

   Reads the page's study data (<script type="application/json" id="study-data">, the viewer's
   contract: id, rev, latest, line, lines, notes by step, children by step, glyphs, limits,
   urls) and shows, for the step the stepper shows: its note (the comment as the server
   rendered it, the only HTML put in the page; a glyph badge; highlighted cards and seats,
   class "study-mark"; arrows in an SVG over #board), the branches leaving this step, the line
   shown and the way back to its parent.

   Whoever holds the study's owner token (localStorage "game-replay.study.<id>", taken once
   from a "#owner=<token>" fragment, which is then removed from the address) may edit: a
   comment (c), a glyph, marks (tap cards and seats on the board), arrows (tap two of them), and
   "Try another move" (t), which lists the moves the game's engine finds legal and starts a
   branch (or extends the branch whose last step is shown). Every edit fetches the latest
   study/1 JSON, changes it and PUTs it with base = the revision the page shows; a 409 keeps
   the edit (the comment box and a draft in localStorage) and offers to apply it again on the
   latest revision. Readers, old revisions and embeds are read-only.

   Keys (not while typing in a field): c comment, t try another move, [ / ] the other lines at
   this branch point, b back to the parent line, Escape closes a box or leaves marking. Every
   user-written text is put in the page with textContent. */
(function () {
  "use strict";
  var dataEl = document.getElementById("study-data");
  if (!dataEl) return;
  var S;
  try { S = JSON.parse(dataEl.textContent); } catch (e) { return; }
  var TOKEN_KEY = "game-replay.study." + S.id;
  var DRAFT_KEY = "game-replay.study-draft." + S.id;

  // the owner's token from "#owner=<token>", once: kept in localStorage, removed from the
  // address (before stepper.js reads the fragment when this script runs first; from the
  // navigation's own address otherwise, as the stepper has dropped the fragment by then)
  function store(key, value) {
    try {
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
      return true;
    } catch (e) { return false; }
  }
  function read(key) { try { return window.localStorage.getItem(key); } catch (e) { return null; } }
  function tokenFrom(href) {
    var m = /#owner=([A-Za-z0-9_\-.~%]{8,400})$/.exec(String(href || ""));
    return m ? decodeURIComponent(m[1]) : null;
  }
  (function takeToken() {
    var found = tokenFrom(location.hash);
    if (found) {
      store(TOKEN_KEY, found);
      history.replaceState(null, "", location.pathname + location.search);
      return;
    }
    var nav = window.performance && performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    found = nav ? tokenFrom(nav.name) : null;
    if (found) store(TOKEN_KEY, found);
  })();

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function button(text, cls, title) {
    var b = el("button", "study-button" + (cls ? " " + cls : ""), text);
    b.type = "button";
    if (title) b.title = title;
    return b;
  }

  var viewer = null, board = null, panel = null, overlay = null;
  var embed = document.body.classList.contains("page-embed");
  var lines = S.lines || [], byId = {};
  lines.forEach(function (l) { byId[l.id] = l; });
  var line = byId[S.line] || { id: S.line || "main", parent: null, at: 0, last: 0, depth: 0, title: "", first: "" };
  var notes = S.notes || {}, glyphs = S.glyphs || {}, limits = S.limits || {}, urls = S.urls || {};
  var token = read(TOKEN_KEY);
  var latest = S.latest === undefined || S.latest === null || S.latest === S.rev;
  var section = $("study");
  var readonly = !!(section && section.hasAttribute("data-readonly"));
  var editable = !!token && !embed && latest && !readonly;
  var ui = {};          // the panel's parts
  var marking = null;   // {mode: "mark"|"arrow", step, highlights, arrows, first}
  var pending = null;   // the operation being saved (kept for "apply my change again")
  var busy = false;

  function noteAt(step) { return notes[String(step)] || null; }
  function lineName(l) {
    if (!l) return "";
    if (l.id === "main") return "the game as played";
    return (l.title ? l.title : "line " + l.id);
  }
  function lineUrl(id, step) {
    var query = viewer.editQuery(location.search, { line: id === "main" ? null : id, step: null });
    return location.pathname + query + "#" + step;
  }
  function open(href) {
    var here = location.pathname + location.search;
    var cut = href.indexOf("#");
    if ((cut < 0 ? href : href.slice(0, cut)) === here) {
      history.replaceState(null, "", href);
      location.reload();
    } else {
      location.assign(href);
    }
  }
  function childrenOf(id, at) {
    return lines.filter(function (l) { return l.parent === id && l.at === at; });
  }

  // --- the branch point the step shown belongs to: the lines that differ from its next move ---
  function family() {
    var step = viewer.step;
    if (line.id !== "main" && line.parent && step === line.at + 1) {
      var parent = byId[line.parent];
      var list = [parent || { id: line.parent, last: line.at }].concat(childrenOf(line.parent, line.at));
      return { at: line.at, list: list, index: list.map(function (l) { return l.id; }).indexOf(line.id) };
    }
    // the move shown has alternatives (branches that leave the step before it), or the step
    // shown is a branch point itself
    var before = step > 0 ? childrenOf(line.id, step - 1) : [];
    if (before.length) return { at: step - 1, list: [line].concat(before), index: 0 };
    var here = childrenOf(line.id, step);
    if (here.length) return { at: step, list: [line].concat(here), index: 0 };
    return null;
  }
  function moveAmong(delta) {
    var f = family();
    if (!f || f.list.length < 2) { say("No other line leaves this step."); return; }
    var target = f.list[(f.index + delta + f.list.length) % f.list.length];
    var step = Math.min(f.at + 1, target.last === undefined ? f.at + 1 : target.last);
    if (target.id === line.id) { viewer.go(step); return; }
    open(lineUrl(target.id, step));
  }
  function backToParent() {
    if (line.id === "main" || !line.parent) { say("This is the game as played: it has no parent line."); return; }
    open(lineUrl(line.parent, line.at));
  }

  // --- drawing ----------------------------------------------------------------------------------
  function say(text, cls) {
    if (!ui.status) return;
    ui.status.className = "study-status" + (cls ? " " + cls : "");
    ui.status.textContent = text || "";
  }

  function build() {
    var host = section || dataEl.parentNode;
    panel = el("div", "study-panel" + (embed ? " study-embed" : ""));
    panel.id = "study-panel";

    ui.lineBar = el("div", "study-line-bar");
    ui.lineName = el("span", "study-line-name");
    ui.lineBar.appendChild(ui.lineName);
    ui.back = button("\u2190 Back to the parent line", "study-back", "Back to the parent line at the branch point (b)");
    ui.back.setAttribute("data-study", "back");
    ui.back.addEventListener("click", backToParent);
    ui.lineBar.appendChild(ui.back);
    var nav = el("span", "study-nav");
    ui.prevLine = button("[ \u2039 other line", "study-prev", "The previous line at this branch point ([)");
    ui.prevLine.setAttribute("data-study", "prev-line");
    ui.prevLine.addEventListener("click", function () { moveAmong(-1); });
    ui.nextLine = button("other line \u203a ]", "study-next", "The next line at this branch point (])");
    ui.nextLine.setAttribute("data-study", "next-line");
    ui.nextLine.addEventListener("click", function () { moveAmong(1); });
    nav.appendChild(ui.prevLine);
    nav.appendChild(ui.nextLine);
    ui.lineBar.appendChild(nav);
    panel.appendChild(ui.lineBar);

    ui.note = el("div", "study-now");
    ui.note.setAttribute("aria-live", "polite");
    ui.glyph = el("span", "study-glyph-badge");
    ui.comment = el("div", "study-now-html");
    ui.note.appendChild(ui.glyph);
    ui.note.appendChild(ui.comment);
    panel.appendChild(ui.note);

    // beside the step's words (on screen with the controls, on a phone too): this step has a note
    var words = $("step-text");
    if (words) {
      ui.flag = el("a", "study-flag");
      ui.flag.href = "#study-panel";
      ui.flag.hidden = true;
      ui.flag.addEventListener("click", function (ev) {
        ev.preventDefault();
        panel.scrollIntoView({ block: "start", behavior: "smooth" });
      });
      words.appendChild(document.createTextNode(" "));
      words.appendChild(ui.flag);
    }

    ui.branches = el("div", "study-branches");
    panel.appendChild(ui.branches);

    if (editable) buildTools();
    else if (!embed) {
      var why = !latest || readonly ? "This is revision " + S.rev + " of the study (read-only); the latest is revision " + S.latest + "."
                        : "You are reading this study: only its owner can change it.";
      panel.appendChild(el("p", "study-readonly muted", why));
      if ((!latest || readonly) && (urls.latest || urls.page) && !$("study-revision")) {
        var a = el("a", "study-latest", "Open the latest revision");
        a.href = urls.latest || urls.page;
        panel.appendChild(a);
      }
    }
    ui.status = el("p", "study-status");
    ui.status.setAttribute("role", "status");
    panel.appendChild(ui.status);
    ui.conflict = el("div", "study-conflict");
    ui.conflict.hidden = true;
    panel.appendChild(ui.conflict);

    // first in the study's section, under its heading: the note of the step shown comes first
    var heading = host.querySelector("h2, .study-embed-title");
    host.insertBefore(panel, heading ? heading.nextSibling : host.firstChild);
  }

  function buildTools() {
    var tools = el("div", "study-tools");
    tools.setAttribute("role", "toolbar");
    tools.setAttribute("aria-label", "Annotate this step");
    ui.commentButton = button("Comment (c)", "study-comment-button", "Write a comment on this step (c)");
    ui.commentButton.setAttribute("data-study", "comment");
    ui.commentButton.addEventListener("click", openComment);
    tools.appendChild(ui.commentButton);
    ui.glyphButtons = {};
    // the glyphs in the usual order (good, bad, very good, very bad, interesting, dubious)
    var order = ["!", "?", "!!", "??", "!?", "?!"];
    var names = order.filter(function (g) { return glyphs[g]; })
      .concat(Object.keys(glyphs).filter(function (g) { return order.indexOf(g) < 0; }));
    names.forEach(function (g) {
      var b = button(g, "study-glyph-button", glyphs[g]);
      b.setAttribute("data-glyph", g);
      b.setAttribute("aria-pressed", "false");
      b.setAttribute("aria-label", "Glyph " + g + " (" + glyphs[g] + ")");
      b.addEventListener("click", function () { toggleGlyph(g); });
      ui.glyphButtons[g] = b;
      tools.appendChild(b);
    });
    ui.markButton = button("Mark", "study-mark-button", "Tap cards or seats on the board to highlight them");
    ui.markButton.setAttribute("data-study", "mark");
    ui.markButton.setAttribute("aria-pressed", "false");
    ui.markButton.addEventListener("click", function () { startMarking("mark"); });
    tools.appendChild(ui.markButton);
    ui.arrowButton = button("Arrow", "study-arrow-button", "Tap two cards or seats to draw an arrow between them");
    ui.arrowButton.setAttribute("data-study", "arrow");
    ui.arrowButton.setAttribute("aria-pressed", "false");
    ui.arrowButton.addEventListener("click", function () { startMarking("arrow"); });
    tools.appendChild(ui.arrowButton);
    ui.tryButton = button("Try another move (t)", "study-try-button", "List the legal moves here and start a branch (t)");
    ui.tryButton.setAttribute("data-study", "try");
    ui.tryButton.addEventListener("click", openMoves);
    tools.appendChild(ui.tryButton);
    panel.appendChild(tools);

    // marking: what to do, and save / cancel
    ui.markBar = el("div", "study-mark-bar");
    ui.markBar.hidden = true;
    ui.markHint = el("span", "study-mark-hint");
    ui.markBar.appendChild(ui.markHint);
    ui.markSave = button("Save marks", "study-save primary");
    ui.markSave.setAttribute("data-study", "save-marks");
    ui.markSave.addEventListener("click", saveMarks);
    ui.markCancel = button("Cancel", "study-cancel");
    ui.markCancel.addEventListener("click", stopMarking);
    ui.markBar.appendChild(ui.markSave);
    ui.markBar.appendChild(ui.markCancel);
    panel.appendChild(ui.markBar);

    // the comment box
    ui.editor = el("form", "study-editor");
    ui.editor.hidden = true;
    var label = el("label", "study-editor-label", "Comment on step ");
    ui.editorStep = el("span", null, "");
    label.appendChild(ui.editorStep);
    ui.textarea = el("textarea", "study-textarea");
    ui.textarea.id = "study-comment-text";
    ui.textarea.rows = 5;
    ui.textarea.setAttribute("dir", "auto");
    label.setAttribute("for", ui.textarea.id);
    ui.editor.appendChild(label);
    ui.editor.appendChild(el("p", "study-help muted", "Plain text: *emphasis*, **strong**, `code`, [text](address). Ctrl+Enter saves, Escape cancels."));
    ui.editor.appendChild(ui.textarea);
    var row = el("div", "study-editor-buttons");
    ui.editorSave = button("Save", "study-save primary");
    ui.editorSave.setAttribute("data-study", "save-comment");
    ui.editorCancel = button("Cancel", "study-cancel");
    ui.editorCancel.setAttribute("data-study", "cancel-comment");
    row.appendChild(ui.editorSave);
    row.appendChild(ui.editorCancel);
    ui.editor.appendChild(row);
    ui.editor.addEventListener("submit", function (ev) { ev.preventDefault(); saveComment(); });
    ui.editorSave.addEventListener("click", saveComment);
    ui.editorCancel.addEventListener("click", closeComment);
    ui.textarea.addEventListener("input", keepDraft);
    ui.textarea.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); saveComment(); }
      else if (ev.key === "Escape") { ev.preventDefault(); closeComment(); }
    });
    panel.appendChild(ui.editor);

    // the legal moves
    ui.moves = el("div", "study-moves");
    ui.moves.hidden = true;
    ui.movesHead = el("p", "study-moves-head");
    ui.moves.appendChild(ui.movesHead);
    ui.filter = el("input", "study-filter");
    ui.filter.type = "search";
    ui.filter.placeholder = "Filter the moves";
    ui.filter.setAttribute("aria-label", "Filter the moves");
    ui.filter.hidden = true;
    var timer = null;
    ui.filter.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { loadMoves(ui.filter.value); }, 250);
    });
    ui.filter.addEventListener("keydown", function (ev) { if (ev.key === "Escape") { ev.preventDefault(); closeMoves(); } });
    ui.moves.appendChild(ui.filter);
    ui.moveList = el("ul", "study-move-list");
    ui.moves.appendChild(ui.moveList);
    var close = button("Close", "study-cancel");
    close.addEventListener("click", closeMoves);
    ui.moves.appendChild(close);
    panel.appendChild(ui.moves);
  }

  function render(i) {
    var note = noteAt(i);
    ui.glyph.replaceChildren();
    if (note && note.glyph) {
      ui.glyph.textContent = note.glyph;
      ui.glyph.title = glyphs[note.glyph] || "";
      ui.glyph.hidden = false;
    } else {
      ui.glyph.hidden = true;
    }
    // the server's rendering of the comment (replay/study.py render_comment): escaped there,
    // the one piece of HTML this script puts in the page
    ui.comment.innerHTML = note && note.html ? note.html : "";
    ui.note.classList.toggle("empty", !(note && (note.html || note.glyph)));
    if (ui.flag) {
      var marked = note && (note.html || note.glyph || (note.highlights || []).length || (note.arrows || []).length);
      ui.flag.hidden = !marked;
      ui.flag.textContent = marked ? (note.glyph ? note.glyph + " " : "") + (note.html ? "\u270e note" : "\u25ce marks") : "";
      ui.flag.title = "This step has a note: show it";
    }
    if (!note || !(note.html || note.glyph)) ui.comment.appendChild(el("p", "muted study-empty", "No note on step " + i + "."));

    // the line shown and the way back
    var name = line.id === "main" ? "The game as played" : "What if: " + lineName(line) +
      " (from " + (line.parent === "main" ? "the game as played" : "line " + line.parent) + " after step " + line.at + ")";
    ui.lineName.textContent = name;
    ui.lineBar.setAttribute("data-line", line.id);
    ui.back.hidden = line.id === "main";
    var f = family();
    var many = !!f && f.list.length > 1;
    ui.prevLine.hidden = !many;
    ui.nextLine.hidden = !many;

    // the branches leaving this step
    var kids = (S.children && S.children[String(i)]) || childrenOf(line.id, i);
    ui.branches.replaceChildren();
    if (kids.length) {
      ui.branches.appendChild(el("p", "study-branches-head", kids.length === 1 ? "A what-if line leaves this step:" : kids.length + " what-if lines leave this step:"));
      var list = el("ul", "study-branch-list");
      kids.forEach(function (k) {
        var li = el("li"), a = el("a", "study-branch-link", (k.title ? k.title : k.id) + (k.first ? ": " + k.first : ""));
        a.href = lineUrl(k.id, i + 1);
        a.setAttribute("data-line", k.id);
        li.appendChild(a);
        list.appendChild(li);
      });
      ui.branches.appendChild(list);
    }
    if (editable) {
      Object.keys(ui.glyphButtons).forEach(function (g) {
        ui.glyphButtons[g].setAttribute("aria-pressed", note && note.glyph === g ? "true" : "false");
      });
      ui.commentButton.textContent = note && note.comment ? "Edit comment (c)" : "Comment (c)";
      if (!ui.editor.hidden && +ui.editor.getAttribute("data-step") !== i) closeComment(true);
      if (!ui.moves.hidden && +ui.moves.getAttribute("data-step") !== i) closeMoves();
    }
    drawMarks(i);
  }

  // --- marks and arrows ---------------------------------------------------------------------
  function markKey(m) { return m.kind + ":" + m.id; }
  function marksShown(i) {
    if (marking && marking.step === i) return { highlights: marking.highlights, arrows: marking.arrows };
    var note = noteAt(i);
    return { highlights: (note && note.highlights) || [], arrows: (note && note.arrows) || [] };
  }
  function boardEls(m) {
    var root = $("board");
    if (!root || !m || (m.kind !== "card" && m.kind !== "seat")) return [];
    var attr = m.kind === "card" ? "data-card" : "data-seat";
    return Array.prototype.slice.call(root.querySelectorAll("[" + attr + '="' + CSS.escape(String(m.id)) + '"]'));
  }
  function drawMarks(i) {
    var root = $("board");
    if (!root) return;
    Array.prototype.forEach.call(root.querySelectorAll(".study-mark"), function (e) { e.classList.remove("study-mark"); });
    Array.prototype.forEach.call(root.querySelectorAll(".study-picked"), function (e) { e.classList.remove("study-picked"); });
    var shown = marksShown(i);
    shown.highlights.forEach(function (m) { boardEls(m).forEach(function (e) { e.classList.add("study-mark"); }); });
    if (marking && marking.first) boardEls(marking.first).forEach(function (e) { e.classList.add("study-picked"); });
    drawArrows(shown.arrows);
  }
  function centre(m, origin) {
    var found = boardEls(m).filter(function (e) { return e.getClientRects().length; })[0];
    if (!found) return null;
    var r = found.getBoundingClientRect();
    return { x: r.left + r.width / 2 - origin.left, y: r.top + r.height / 2 - origin.top };
  }
  var SVG = "http://www.w3.org/2000/svg";
  function drawArrows(arrows) {
    var root = $("board");
    if (!root) return;
    if (!overlay) {
      overlay = document.createElementNS(SVG, "svg");
      overlay.setAttribute("class", "study-arrows");
      overlay.setAttribute("aria-hidden", "true");
      var defs = document.createElementNS(SVG, "defs"), marker = document.createElementNS(SVG, "marker");
      marker.setAttribute("id", "study-arrow-head");
      marker.setAttribute("viewBox", "0 0 10 10");
      marker.setAttribute("refX", "8");
      marker.setAttribute("refY", "5");
      marker.setAttribute("markerWidth", "5");
      marker.setAttribute("markerHeight", "5");
      marker.setAttribute("orient", "auto-start-reverse");
      var head = document.createElementNS(SVG, "path");
      head.setAttribute("d", "M0,0 L10,5 L0,10 z");
      marker.appendChild(head);
      defs.appendChild(marker);
      overlay.appendChild(defs);
      document.body.appendChild(overlay);
    }
    var rect = root.getBoundingClientRect();
    var left = rect.left + window.scrollX, top = rect.top + window.scrollY;
    overlay.style.left = left + "px";
    overlay.style.top = top + "px";
    overlay.style.width = rect.width + "px";
    overlay.style.height = rect.height + "px";
    overlay.setAttribute("viewBox", "0 0 " + Math.max(1, rect.width) + " " + Math.max(1, rect.height));
    Array.prototype.slice.call(overlay.querySelectorAll("line")).forEach(function (l) { overlay.removeChild(l); });
    var drawn = 0;
    arrows.forEach(function (a) {
      var from = centre(a.from, rect), to = centre(a.to, rect);
      if (!from || !to) return;
      var l = document.createElementNS(SVG, "line");
      l.setAttribute("x1", String(from.x));
      l.setAttribute("y1", String(from.y));
      l.setAttribute("x2", String(to.x));
      l.setAttribute("y2", String(to.y));
      l.setAttribute("class", "study-arrow");
      l.setAttribute("data-from", markKey(a.from));
      l.setAttribute("data-to", markKey(a.to));
      l.setAttribute("marker-end", "url(#study-arrow-head)");
      overlay.appendChild(l);
      drawn += 1;
    });
    overlay.style.display = drawn ? "" : "none";
  }

  function startMarking(mode) {
    if (marking && marking.mode === mode) { stopMarking(); return; }
    closeComment(true);
    closeMoves();
    var i = viewer.step, base = marksShown(i);
    marking = marking && marking.step === i ? marking : {
      step: i, highlights: base.highlights.slice(), arrows: base.arrows.slice(), first: null };
    marking.mode = mode;
    marking.first = null;
    document.documentElement.classList.add("study-marking");
    ui.markButton.setAttribute("aria-pressed", mode === "mark" ? "true" : "false");
    ui.arrowButton.setAttribute("aria-pressed", mode === "arrow" ? "true" : "false");
    ui.markHint.textContent = mode === "mark" ? "Tap cards or seats on the board to highlight them (tap again to clear)."
                                              : "Tap a card or seat, then another: an arrow joins them (the same two again remove it).";
    ui.markBar.hidden = false;
    drawMarks(viewer.step);
  }
  function stopMarking() {
    marking = null;
    document.documentElement.classList.remove("study-marking");
    if (!ui.markBar) return;
    ui.markBar.hidden = true;
    ui.markButton.setAttribute("aria-pressed", "false");
    ui.arrowButton.setAttribute("aria-pressed", "false");
    drawMarks(viewer.step);
  }
  function markOf(target) {
    var root = $("board");
    var e = target && target.closest ? target.closest("[data-card], [data-seat]") : null;
    if (!e || !root || !root.contains(e)) return null;
    if (e.hasAttribute("data-card")) return { kind: "card", id: e.getAttribute("data-card") };
    return { kind: "seat", id: e.getAttribute("data-seat") };
  }
  function tapMark(m) {
    if (!marking || marking.step !== viewer.step) return;
    var max = limits.marks || 64;
    if (marking.mode === "mark") {
      var at = marking.highlights.map(markKey).indexOf(markKey(m));
      if (at >= 0) marking.highlights.splice(at, 1);
      else if (marking.highlights.length >= max) { say("At most " + max + " marks on one step.", "error"); return; }
      else marking.highlights.push(m);
    } else if (!marking.first) {
      marking.first = m;
    } else {
      var from = marking.first;
      marking.first = null;
      if (markKey(from) !== markKey(m)) {
        var same = marking.arrows.map(function (a) { return markKey(a.from) + ">" + markKey(a.to); }).indexOf(markKey(from) + ">" + markKey(m));
        if (same >= 0) marking.arrows.splice(same, 1);
        else if (marking.arrows.length >= max) { say("At most " + max + " arrows on one step.", "error"); return; }
        else marking.arrows.push({ from: from, to: m });
      }
    }
    drawMarks(viewer.step);
  }
  function saveMarks() {
    if (!marking) return;
    var op = { kind: "note", line: line.id, step: marking.step,
               set: { highlights: marking.highlights.slice(), arrows: marking.arrows.slice() } };
    save(op);
  }
  // while marking, a tap on the board marks: the stepper never sees it (no step, no swipe)
  function wireMarking() {
    ["pointerdown", "pointerup", "click"].forEach(function (type) {
      window.addEventListener(type, function (ev) {
        if (!marking) return;
        var root = $("board");
        if (!root || !root.contains(ev.target)) return;
        ev.stopPropagation();
        if (type !== "click") return;
        ev.preventDefault();
        var m = markOf(ev.target);
        if (m) tapMark(m);
      }, true);
    });
  }

  // --- glyphs and comments -------------------------------------------------------------------
  function toggleGlyph(g) {
    var note = noteAt(viewer.step);
    var next = note && note.glyph === g ? null : g;
    save({ kind: "note", line: line.id, step: viewer.step, set: { glyph: next } });
  }
  function draft() {
    try { return JSON.parse(read(DRAFT_KEY) || "null"); } catch (e) { return null; }
  }
  function keepDraft() {
    var step = +ui.editor.getAttribute("data-step");
    store(DRAFT_KEY, JSON.stringify({ line: line.id, step: step, text: ui.textarea.value }));
  }
  function openComment() {
    if (!editable) return;
    stopMarking();
    closeMoves();
    var i = viewer.step, note = noteAt(i), d = draft();
    ui.editor.setAttribute("data-step", String(i));
    ui.editorStep.textContent = String(i);
    if (d && d.line === line.id && d.step === i && typeof d.text === "string") {
      ui.textarea.value = d.text;
      say("Your unsaved comment is back.");
    } else {
      ui.textarea.value = note && note.comment ? note.comment : "";
    }
    ui.editor.hidden = false;
    ui.textarea.focus();
  }
  function closeComment(keep) {
    if (!ui.editor || ui.editor.hidden) return;
    ui.editor.hidden = true;
    if (keep !== true) {
      var d = draft();
      if (d && d.line === line.id && d.step === +ui.editor.getAttribute("data-step")) store(DRAFT_KEY, null);
    }
  }
  function utf8Length(text) {
    return window.TextEncoder ? new TextEncoder().encode(text).length : unescape(encodeURIComponent(text)).length;
  }
  function saveComment() {
    if (ui.editor.hidden || busy) return;
    var text = ui.textarea.value, step = +ui.editor.getAttribute("data-step");
    var most = limits.comment_bytes || 131072, size = utf8Length(text);
    if (size > most) { say("The comment is " + size.toLocaleString("en-US") + " bytes; at most " + most.toLocaleString("en-US") + " are allowed.", "error"); return; }
    keepDraft();
    save({ kind: "note", line: line.id, step: step, set: { comment: text } });
  }

  // --- moves and branches -------------------------------------------------------------------
  function openMoves() {
    if (!editable) return;
    stopMarking();
    closeComment(true);
    ui.moves.setAttribute("data-step", String(viewer.step));
    ui.moves.hidden = false;
    ui.filter.value = "";
    ui.filter.hidden = true;
    loadMoves("");
  }
  function closeMoves() { if (ui.moves) ui.moves.hidden = true; }
  var movesAsked = 0;
  function loadMoves(q) {
    var step = viewer.step, asked = ++movesAsked;
    var base = urls.moves || "/api/studies/" + encodeURIComponent(S.id) + "/moves";
    var query = "line=" + encodeURIComponent(line.id) + "&step=" + step +
      "&view=" + encodeURIComponent(viewer.perspective || "all") + (q ? "&q=" + encodeURIComponent(q) : "");
    ui.movesHead.textContent = "Finding the legal moves after step " + step + "\u2026";
    fetch(base + (base.indexOf("?") < 0 ? "?" : "&") + query, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(answer)
      .then(function (d) {
        if (asked !== movesAsked) return;
        showMoves(d, step, q);
      })
      .catch(function (e) {
        if (asked !== movesAsked) return;
        ui.movesHead.textContent = "The moves could not be loaded: " + e.message;
      });
  }
  function showMoves(d, step, q) {
    var moves = d.moves || [], total = d.total || moves.length;
    var last = line.last !== undefined ? line.last : viewer.last;
    var extend = line.id !== "main" && step === last;
    if (!moves.length) {
      ui.movesHead.textContent = q ? "No legal move matches \u201c" + q + "\u201d." :
        "No move can be tried after step " + step + " (the game is over there, or this view cannot see whose move it is).";
    } else {
      ui.movesHead.textContent = (total === 1 ? "1 legal move" : total + " legal moves") + " after step " + step +
        (d.to_act ? " (" + d.to_act + " to act)" : "") + (extend ? ": choose one to continue this line." : ": choose one to start a what-if line.");
    }
    ui.filter.hidden = !(q || total > 24);
    var frag = document.createDocumentFragment();
    moves.forEach(function (m) {
      var li = el("li"), b = button(m.text || JSON.stringify(m.event), "study-move");
      b.setAttribute("data-move", String(m.index));
      b.addEventListener("click", function () {
        save({ kind: "branch", line: line.id, step: step, extend: extend, event: m.event, text: m.text });
      });
      li.appendChild(b);
      frag.appendChild(li);
    });
    if (moves.length < total) frag.appendChild(el("li", "muted", "\u2026 and " + (total - moves.length) + " more: filter to find one."));
    ui.moveList.replaceChildren(frag);
  }

  // --- saving: GET the latest, apply the operation, PUT with base ---------------------------
  function answer(r) {
    return r.json().then(function (d) { return d; }, function () { return null; }).then(function (d) {
      if (r.ok && d) return d;
      var e = new Error((d && d.error) || "the server answered " + r.status);
      e.status = r.status;
      e.data = d;
      throw e;
    });
  }
  function api() { return urls.api || "/api/studies/" + encodeURIComponent(S.id); }

  // the line a step belongs to: a branch's steps up to its "at" are its parent's
  function ownerLine(study, id, step) {
    var branches = {};
    (study.branches || []).forEach(function (b) { branches[b.id] = b; });
    var guard = 0;
    while (id !== "main" && branches[id] && guard++ < 100) {
      if (step > branches[id].at) return id;
      id = branches[id].parent;
    }
    return "main";
  }
  function apply(op, study) {
    study = JSON.parse(JSON.stringify(study));
    study.notes = study.notes || [];
    study.branches = study.branches || [];
    if (op.kind === "note") {
      var owner = ownerLine(study, op.line, op.step);
      var note = { line: owner, step: op.step, comment: "", glyph: null, highlights: [], arrows: [] };
      study.notes = study.notes.filter(function (n) {
        if (ownerLine(study, n.line, n.step) !== owner || n.step !== op.step) return true;
        note.comment = [note.comment, n.comment || ""].filter(Boolean).join("\n\n");
        note.glyph = n.glyph || note.glyph;
        note.highlights = note.highlights.concat(n.highlights || []);
        note.arrows = note.arrows.concat(n.arrows || []);
        return false;
      });
      Object.keys(op.set).forEach(function (k) { note[k] = op.set[k]; });
      if (String(note.comment).trim() || note.glyph || note.highlights.length || note.arrows.length) study.notes.push(note);
      return { study: study, line: op.line, step: op.step };
    }
    if (op.extend) {
      var branch = study.branches.filter(function (b) { return b.id === op.line; })[0];
      if (branch) {
        branch.moves = (branch.moves || []).concat([op.event]);
        return { study: study, line: op.line, step: op.step + 1 };
      }
    }
    var taken = {}, n = 1;
    study.branches.forEach(function (b) { taken[b.id] = true; });
    while (taken["b" + n]) n += 1;
    study.branches.push({ id: "b" + n, parent: op.line, at: op.step, moves: [op.event], title: "" });
    return { study: study, line: "b" + n, step: op.step + 1 };
  }
  function save(op, base) {
    if (busy) return;
    busy = true;
    pending = op;
    setBusy(true);
    say("Saving\u2026");
    var headers = { Accept: "application/json", "X-Study-Token": token };
    fetch(api(), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(answer)
      .then(function (got) {
        var done = apply(op, got.study);
        var body = JSON.stringify({ base: base === undefined ? S.rev : base, study: done.study });
        return fetch(api(), { method: "PUT", credentials: "same-origin", body: body,
                              headers: Object.assign({ "Content-Type": "application/json" }, headers) })
          .then(answer)
          .then(function () { return done; });
      })
      .then(function (done) {
        if (op.kind === "note" && op.set.comment !== undefined) store(DRAFT_KEY, null);
        pending = null;
        say("Saved.");
        open(lineUrl(done.line, done.step));
      })
      .catch(function (e) {
        busy = false;
        setBusy(false);
        if (e.status === 409) { conflict(e.data && e.data.latest); return; }
        if (e.status === 403) { say("This browser\u2019s owner key is not accepted for this study: " + e.message, "error"); return; }
        say("Not saved: " + e.message, "error");
      });
  }
  function setBusy(on) {
    Array.prototype.forEach.call(panel.querySelectorAll(".study-tools button, .study-save, .study-move"), function (b) { b.disabled = on; });
  }
  // a save against an old revision: nothing is lost, and it can be applied again on the latest
  function conflict(latestRev) {
    ui.conflict.replaceChildren();
    ui.conflict.appendChild(el("p", "study-conflict-text",
      "Someone saved revision " + (latestRev || "?") + " meanwhile: your change is not saved yet (it is kept here)."));
    var again = button("Load the latest and apply my change again", "study-reapply primary");
    again.setAttribute("data-study", "reapply");
    again.addEventListener("click", function () {
      var op = pending;
      if (!op) return;
      // the comment box may have been edited since: apply what it holds now
      if (op.kind === "note" && op.set.comment !== undefined && !ui.editor.hidden) op.set.comment = ui.textarea.value;
      fetch(api(), { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(answer)
        .then(function (got) { ui.conflict.hidden = true; save(op, got.rev); })
        .catch(function (e) { say("The latest revision could not be loaded: " + e.message, "error"); });
    });
    ui.conflict.appendChild(again);
    ui.conflict.hidden = false;
    say("");
  }

  // --- keys ---------------------------------------------------------------------------------
  function wireKeys() {
    document.addEventListener("keydown", function (ev) {
      if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
      var t = ev.target, tag = t && t.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
      var key = ev.key;
      if (key === "Escape") {
        if (marking) { stopMarking(); ev.preventDefault(); }
        else if (ui.moves && !ui.moves.hidden) { closeMoves(); ev.preventDefault(); }
        return;
      }
      var handled = true;
      if (key === "[") moveAmong(-1);
      else if (key === "]") moveAmong(1);
      else if (key === "b" || key === "B") backToParent();
      else if (editable && (key === "c" || key === "C")) openComment();
      else if (editable && (key === "t" || key === "T")) openMoves();
      else handled = false;
      if (handled) ev.preventDefault();
    });
  }

  function start() {
    viewer = window.GameViewer;
    if (!viewer || !viewer.onStep || !viewer.board || panel) return;
    document.documentElement.classList.add("study-page");
    if (editable) document.documentElement.classList.add("study-owner");
    build();
    viewer.onStep(function (i) { render(i); });
    render(viewer.step);
    wireKeys();
    if (editable) wireMarking();
    var again = function () { drawMarks(viewer.step); };
    window.addEventListener("resize", again);
    if (window.ResizeObserver && $("board")) new ResizeObserver(again).observe($("board"));
    window.addEventListener("load", again);
    window.GameStudy = {
      get line() { return line.id; }, get editable() { return editable; },
      get rev() { return S.rev; }, family: family
    };
  }
  // stepper.js and the board register on their own deferred scripts, which run after this one
  // (it comes first, to take the owner's token before the stepper rewrites the address):
  // start once they have. DOMContentLoaded follows every deferred script; "load" is the last
  // chance (start runs once, and only when the board is there)
  if (window.GameViewer && window.GameViewer.board) start();
  else {
    document.addEventListener("DOMContentLoaded", start);
    window.addEventListener("load", start);
  }
})();
