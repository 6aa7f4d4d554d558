/* The generic board: shows the current step's text (a game with no board of its own). */
(function () {
  "use strict";
  var viewer = window.GameViewer;
  if (!viewer || !viewer.register) return;
  viewer.register({
    render: function (step) {
      var box = document.getElementById("generic-step");
      if (box) { box.textContent = step.x || step.text || ""; }
    }
  });
}());
