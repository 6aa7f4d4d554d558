/* A game's charts, game-neutral. Two kinds:
   - SVG charts drawn by the server (figure.chart-svg, in a <template> until the chart comes
     near the screen): every mark carries data-step and shows
     from that step on, so a chart never runs ahead of the board (unless the reader asked to see
     the whole game); the current step is marked; a click on a mark jumps to its step. No chart
     library: nothing to download, nothing that blocks.
   - plotly figures (<script type="application/json" id="charts-data">) for boards that give
     them: the smallest plotly.js bundle that draws them (section's data-plotly) loads only when
     a chart comes into view, and each chart is drawn in a task of its own. Points whose
     customdata (a step) lies after the current step are left out; a bar trace with
     "stepcounts" (per bar, the steps its count goes up at) counts only those up to it, and
     lists only their lines of "steptext" (per bar, a line beside each step) as its text.
   A chart's "mark" other than "step" is placed by the board's chartMark(chart, step); the
   board's chartHidden(chart, step) may hide a chart that would give something away (it may
   return the sentence to show instead). A chart with "perspective": "all" shows only with all
   hands open. */
(function () {
  "use strict";
  var section = document.getElementById("charts");
  var viewer = window.GameViewer;
  if (!section || !viewer || !viewer.onStep) return;
  var note = document.getElementById("charts-note");
  var dataEl = document.getElementById("charts-data");
  var figures = dataEl ? JSON.parse(dataEl.textContent) : [];

  function markX(chart, s) {
    var board = viewer.board;
    if (board && board.chartMark) {
      var x = board.chartMark(chart, s);
      if (x !== undefined) return x;
    }
    if (chart.mark === "step") return s.i;
    return null;
  }

  function hidden(chart, s) {
    if (chart.perspective === "all" && viewer.perspective !== "all") return "Shown with all hands open.";
    var board = viewer.board;
    if (board && board.chartHidden) return board.chartHidden(chart, s) || false;
    return false;
  }

  function applyHidden(box, chart, s) {
    var why = hidden(chart, s);
    box.classList.toggle("chart-hidden", !!why);
    if (why) box.setAttribute("data-hidden-note", typeof why === "string" ? why : "Hidden at this step, so as not to give the game away.");
  }

  // --- SVG charts ------------------------------------------------------------------------
  // The server's SVG waits in a <template> (parsed, but neither styled nor laid out) until the
  // chart comes near the screen.
  var svgCharts = [];
  function openSvg(box) {
    var source = box.querySelector("template.chart-source");
    if (!source) return;
    box.appendChild(source.content.cloneNode(true));
    source.parentNode.removeChild(source);
    var chart = svgChart(box);
    svgCharts.push(chart);
    drawSvg(chart, viewer.steps[viewer.step]);
  }
  function svgChart(box) {
    var svg = box.querySelector("svg.svg-chart");
    return {
      box: box, svg: svg, id: box.getAttribute("data-chart"), mark: box.getAttribute("data-mark") || null,
      band: box.hasAttribute("data-band"), perspective: box.getAttribute("data-perspective") || null,
      marks: Array.prototype.slice.call(svg.querySelectorAll("[data-step]")).map(function (e) {
        return { el: e, step: +e.getAttribute("data-step") };
      }),
      cursor: svg.querySelector(".chart-mark"),
      x0: +svg.getAttribute("data-x0"), x1: +svg.getAttribute("data-x1"),
      px0: +svg.getAttribute("data-px0"), px1: +svg.getAttribute("data-px1")
    };
  }
  var svgBoxes = Array.prototype.slice.call(section.querySelectorAll("figure.chart-svg"));
  if ("IntersectionObserver" in window) {
    var near = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (!e.isIntersecting) return;
        near.unobserve(e.target);
        openSvg(e.target);
      });
    }, { rootMargin: "300px 0px" });
    svgBoxes.forEach(function (box) { near.observe(box); });
  } else {
    svgBoxes.forEach(openSvg);
  }

  function drawSvg(chart, s) {
    var whole = viewer.whole();
    chart.marks.forEach(function (m) { m.el.classList.toggle("later", !whole && m.step > s.i); });
    applyHidden(chart.box, chart, s);
    if (!chart.cursor) return;
    var x = chart.mark ? markX(chart, s) : null;
    if (x === null || x === undefined || isNaN(x)) { chart.cursor.setAttribute("visibility", "hidden"); return; }
    var scale = (chart.px1 - chart.px0) / ((chart.x1 - chart.x0) || 1);
    var half = chart.band || chart.mark === "step" ? 0.5 * scale : 1;
    chart.cursor.setAttribute("x", String(chart.px0 + (x - chart.x0) * scale - half));
    chart.cursor.setAttribute("width", String(2 * half));
    // a hidden chart shows no current-step mark either (visibility="visible" on the mark would
    // show it through the hidden picture)
    chart.cursor.setAttribute("visibility", chart.box.classList.contains("chart-hidden") ? "hidden" : "visible");
  }

  section.addEventListener("click", function (ev) {
    var target = ev.target.closest ? ev.target.closest("svg.svg-chart [data-step]") : null;
    if (!target || target.classList.contains("later")) return;
    viewer.go(+target.getAttribute("data-step"));
  });

  // --- plotly figures ----------------------------------------------------------------------
  var plotly = { state: "idle", waiting: [] };
  function withPlotly(fn) {
    if (plotly.state === "ready") { fn(window.Plotly); return; }
    plotly.waiting.push(fn);
    if (plotly.state !== "idle") return;
    plotly.state = "loading";
    var script = document.createElement("script");
    script.src = section.getAttribute("data-plotly");
    script.async = true;
    script.onload = function () {
      plotly.state = "ready";
      var queue = plotly.waiting.splice(0);
      // one chart per task: the page keeps answering between them
      (function next() {
        if (!queue.length) return;
        queue.shift()(window.Plotly);
        setTimeout(next, 0);
      })();
    };
    script.onerror = function () { plotly.state = "failed"; if (note) note.textContent = "Charts could not be loaded."; };
    document.head.appendChild(script);
  }

  function dark() {
    var theme = document.documentElement.getAttribute("data-theme");
    return theme === "dark" || (theme !== "light" && window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
  }

  // the points of a trace up to step i (customdata holds each point's step); a trace of counts
  // (stepcounts: per bar, the steps its count goes up at) counts the steps up to i, and its
  // text (steptext: per bar, a line beside each of those steps) lists theirs
  function upTo(trace, i) {
    if (Array.isArray(trace.stepcounts)) {
      var counted = Object.assign({}, trace);
      delete counted.stepcounts;
      delete counted.steptext;
      if (viewer.whole()) return counted;
      counted.y = trace.stepcounts.map(function (list) { return list.filter(function (st) { return st <= i; }).length; });
      if (Array.isArray(trace.steptext)) {  // per bar, a line beside each of its steps: those up to i
        counted.text = trace.steptext.map(function (lines, n) {
          return lines.filter(function (_, k) { return trace.stepcounts[n][k] <= i; }).join("<br>");
        });
      }
      return counted;
    }
    var steps = trace.customdata;
    if (!Array.isArray(steps) || viewer.whole()) return trace;
    var out = Object.assign({}, trace);
    if (Array.isArray(steps[0])) { // a grid: blank the cells after i
      out.z = (trace.z || []).map(function (row, r) { return row.map(function (v, c) { var st = steps[r][c]; return st !== null && st > i ? null : v; }); });
      if (Array.isArray(trace.text)) out.text = trace.text.map(function (row, r) { return row.map(function (v, c) { var st = steps[r][c]; return st !== null && st > i ? "" : v; }); });
      return out;
    }
    var keep = steps.map(function (st) { return st === null || st === undefined || st <= i; });
    ["x", "y", "customdata", "text", "hovertext"].forEach(function (key) {
      if (Array.isArray(trace[key]) && trace[key].length === steps.length) out[key] = trace[key].filter(function (_, n) { return keep[n]; });
    });
    return out;
  }

  function markShape(chart, x) {
    if (x === null || x === undefined) return null;
    var half = chart.band || chart.mark === "step" ? 0.5 : 0;
    return {
      type: half ? "rect" : "line", xref: "x", yref: "paper", x0: x - half, x1: x + half, y0: 0, y1: 1,
      line: { color: "#f59e0b", width: half ? 1 : 2 }, fillcolor: "rgba(245,158,11,0.18)", layer: "below", name: "current"
    };
  }

  var plotCharts = [];
  figures.forEach(function (chart) {
    var box = document.getElementById("chart-" + chart.id);
    if (!box || !chart.figure) return;
    chart.box = box;
    chart.drawn = false;
    plotCharts.push(chart);
  });

  function drawPlot(chart, Plotly) {
    var layout = Object.assign({}, chart.figure.layout);
    var fg = dark() ? "#e5e7eb" : "#1f2937";
    layout.font = Object.assign({}, layout.font, { color: fg });
    ["xaxis", "yaxis", "xaxis2", "yaxis2"].forEach(function (a) {
      if (layout[a]) layout[a] = Object.assign({}, layout[a], { gridcolor: dark() ? "#374151" : "#e5e7eb" });
    });
    layout.autosize = true;
    chart.baseShapes = (layout.shapes || []).slice();
    chart.layout = layout;
    var div = document.createElement("div");
    div.className = "chart-plot";
    chart.box.appendChild(div);
    chart.div = div;
    var s = viewer.steps[viewer.step];
    Plotly.newPlot(div, chart.figure.data.map(function (t) { return upTo(t, s.i); }), layout,
                   { displayModeBar: false, responsive: true }).then(function () {
      div.on("plotly_click", function (ev) {
        var p = ev && ev.points && ev.points[0];
        if (!p || p.customdata === null || p.customdata === undefined || chart.clickable === false) return;
        viewer.go(p.customdata);
      });
      chart.drawn = true;
      updatePlot(chart, viewer.steps[viewer.step]);
      if (plotCharts.every(function (c) { return c.drawn; })) section.classList.add("charts-drawn");
    });
  }

  function updatePlot(chart, s) {
    applyHidden(chart.box, chart, s);
    if (!chart.drawn) return;
    var shape = chart.mark ? markShape(chart, markX(chart, s)) : null;
    chart.layout.shapes = shape ? chart.baseShapes.concat([shape]) : chart.baseShapes;
    window.Plotly.react(chart.div, chart.figure.data.map(function (t) { return upTo(t, s.i); }), chart.layout);
  }

  function ask(chart) {
    if (chart.asked) return;
    chart.asked = true;
    withPlotly(function (Plotly) { drawPlot(chart, Plotly); });
  }
  if (plotCharts.length) {
    if ("IntersectionObserver" in window) {
      var seen = new IntersectionObserver(function (entries) {
        entries.forEach(function (e) {
          if (!e.isIntersecting) return;
          seen.unobserve(e.target);
          plotCharts.forEach(function (c) { if (c.box === e.target) ask(c); });
        });
      }, { rootMargin: "200px 0px" });
      plotCharts.forEach(function (c) { seen.observe(c.box); });
    } else {
      plotCharts.forEach(ask);
    }
  }

  // --- following the stepper --------------------------------------------------------------
  var pending = null;
  function update() {
    if (pending) return;
    pending = requestAnimationFrame(function () {
      pending = null;
      var s = viewer.steps[viewer.step];
      svgCharts.forEach(function (c) { drawSvg(c, s); });
      plotCharts.forEach(function (c) { updatePlot(c, s); });
    });
  }
  viewer.onStep(update);
  var s0 = viewer.steps[viewer.step];
  plotCharts.forEach(function (c) { applyHidden(c.box, c, s0); });
  section.classList.add("charts-ready");
  if (note) note.textContent = note.getAttribute("data-ready") || "Tap a point to jump there. The current step is marked.";
})();
