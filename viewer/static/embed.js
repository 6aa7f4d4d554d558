/* For blogs that embed a replay: <script src="https://<this site>/embed.js" async></script>
   Makes every replay iframe from this site as tall as its content: the embedded page posts
   {type: "game-replay:height", height} whenever its height changes (opening "Auction and play",
   a narrower frame...). Without this script the iframe keeps the height it was given and
   scrolls inside. Only messages from this site's origin, from one of the page's own iframes,
   are obeyed. */
(function () {
  "use strict";
  var script = document.currentScript;
  var origin;
  try { origin = new URL(script && script.src ? script.src : "", location.href).origin; } catch (e) { return; }
  if (window.__gameReplayEmbeds && window.__gameReplayEmbeds[origin]) return;
  window.__gameReplayEmbeds = window.__gameReplayEmbeds || {};
  window.__gameReplayEmbeds[origin] = true;
  window.addEventListener("message", function (ev) {
    if (ev.origin !== origin || !ev.data || ev.data.type !== "game-replay:height") return;
    var height = Math.round(Number(ev.data.height));
    if (!(height > 0 && height < 20000)) return;
    var frames = document.getElementsByTagName("iframe");
    for (var n = 0; n < frames.length; n++) {
      if (frames[n].contentWindow === ev.source) {
        frames[n].style.height = height + "px";
        frames[n].setAttribute("data-game-replay-sized", String(height));
      }
    }
  });
})();
