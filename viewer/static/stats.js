/* Stats page: load plotly.js's basic bundle (served by this app) when the charts come into view,
   then draw the embedded figures, one per task; in the page's theme. */
(function () {
  "use strict";
  var box = document.getElementById("stats-charts-box");
  var data = document.getElementById("stats-charts");
  if (!box || !data) { return; }
  var charts = JSON.parse(data.textContent);
  function dark() {
    var theme = document.documentElement.getAttribute("data-theme");
    return theme === "dark" || (theme !== "light" && window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
  }
  function draw() {
    var queue = charts.slice();
    (function next() {
      var c = queue.shift();
      if (!c) { box.setAttribute("data-drawn", "1"); return; }
      var div = document.getElementById("chart-" + c.id);
      if (div) {
        c.layout.font = {color: dark() ? "#ddd" : "#222"};
        window.Plotly.newPlot(div, c.data, c.layout, {displayModeBar: false, responsive: true});
      }
      setTimeout(next, 0);
    })();
  }
  function load() {
    var script = document.createElement("script");
    script.src = box.getAttribute("data-plotly");
    script.onload = draw;
    document.head.appendChild(script);
  }
  if ("IntersectionObserver" in window) {
    var seen = new IntersectionObserver(function (entries) {
      if (!entries.some(function (e) { return e.isIntersecting; })) { return; }
      seen.disconnect();
      load();
    }, {rootMargin: "200px 0px"});
    seen.observe(box);
  } else {
    load();
  }
}());
