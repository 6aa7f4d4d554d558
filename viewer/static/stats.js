/* Stats page: load plotly.js (served by this app) after the table, then draw the embedded figures. */
(function () {
  "use strict";
  var box = document.getElementById("stats-charts-box");
  var data = document.getElementById("stats-charts");
  if (!box || !data) { return; }
  var charts = JSON.parse(data.textContent);
  function draw() {
    var dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    charts.forEach(function (c) {
      var div = document.getElementById("chart-" + c.id);
      if (!div) { return; }
      c.layout.font = {color: dark ? "#ddd" : "#222"};
      window.Plotly.newPlot(div, c.data, c.layout, {displayModeBar: false, responsive: true});
    });
    box.setAttribute("data-drawn", "1");
  }
  var script = document.createElement("script");
  script.src = box.getAttribute("data-plotly");
  script.onload = draw;
  document.head.appendChild(script);
}());
