/* A game's charts, drawn after the board: loads plotly.js (served by this app), draws the
   figures embedded in the page (<script type="application/json" id="charts-data">), marks the
   current step, and jumps to a step when a point is clicked. Game-neutral: a chart's "mark"
   other than "step" is placed by the board's chartMark(chart, step), and the board's
   chartHidden(chart, step) may hide a chart that would give something away. */
(function () {
  "use strict";
  var section = document.getElementById("charts");
  var dataEl = document.getElementById("charts-data");
  if (!section || !dataEl || !window.GameViewer) return;
  var charts = JSON.parse(dataEl.textContent);
  var viewer = window.GameViewer;
  var note = document.getElementById("charts-note");

  function dark() {
    var theme = document.documentElement.getAttribute("data-theme");
    return theme === "dark" || (theme !== "light" && window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
  }

  function markX(chart, s) {
    var board = viewer.board;
    if (board && board.chartMark) {
      var x = board.chartMark(chart, s);
      if (x !== undefined) return x;
    }
    if (chart.mark === "step") return s.i;
    return null;
  }

  function markShape(chart, x) {
    if (x === null) return null;
    var half = chart.band || chart.mark === "step" ? 0.5 : 0;
    return {
      type: half ? "rect" : "line", xref: "x", yref: "paper", x0: x - half, x1: x + half, y0: 0, y1: 1,
      line: { color: "#f59e0b", width: half ? 1 : 2 }, fillcolor: "rgba(245,158,11,0.18)", layer: "below",
      name: "current"
    };
  }

  function draw() {
    var Plotly = window.Plotly;
    var fg = dark() ? "#e5e7eb" : "#1f2937";
    var grid = dark() ? "#374151" : "#e5e7eb";
    var drawn = [];
    charts.forEach(function (chart) {
      var box = document.getElementById("chart-" + chart.id);
      if (!box) return;
      var layout = chart.figure.layout;
      layout.font = Object.assign({}, layout.font, { color: fg });
      ["xaxis", "yaxis", "xaxis2", "yaxis2"].forEach(function (a) {
        if (layout[a]) layout[a].gridcolor = grid;
      });
      layout.autosize = true;
      layout.shapes = (layout.shapes || []).slice();
      chart.baseShapes = layout.shapes.slice();
      var div = document.createElement("div");
      div.className = "chart-plot";
      box.appendChild(div);
      Plotly.newPlot(div, chart.figure.data, layout, { displayModeBar: false, responsive: true, staticPlot: false })
        .then(function () {
          div.on("plotly_click", function (ev) {
            var p = ev && ev.points && ev.points[0];
            if (!p || p.customdata === null || p.customdata === undefined) return;
            if (chart.clickable === false) return;
            viewer.go(p.customdata);
          });
        });
      chart.div = div;
      drawn.push(chart);
    });
    var pending = null;
    function update(i, s) {
      if (pending) cancelAnimationFrame(pending);
      pending = requestAnimationFrame(function () {
        pending = null;
        drawn.forEach(function (chart) {
          var board = viewer.board;
          if (board && board.chartHidden) {
            document.getElementById("chart-" + chart.id).classList.toggle("chart-hidden", !!board.chartHidden(chart, s));
          }
          if (!chart.mark) return;
          var shape = markShape(chart, markX(chart, s));
          Plotly.relayout(chart.div, { shapes: shape ? chart.baseShapes.concat([shape]) : chart.baseShapes });
        });
      });
    }
    viewer.onStep(update);
    update(viewer.step, viewer.steps[viewer.step]);
    section.classList.add("charts-ready");
    if (note) note.textContent = note.getAttribute("data-ready") || "Click a point to jump there. The current step is marked.";
  }

  var s = document.createElement("script");
  s.src = section.getAttribute("data-plotly");
  s.async = true;
  s.onload = draw;
  s.onerror = function () { if (note) note.textContent = "Charts could not be loaded."; };
  document.head.appendChild(s);
})();
