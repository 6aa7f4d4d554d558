/* Runs first, in <head>, on every page (tiny and synchronous, so nothing flashes): marks the
   page as scripted (html.js: parts that could give a result away stay hidden until the stepper
   has drawn the first step) and applies the reader's theme, remembered in localStorage. A
   ?theme= in the address (data-theme-fixed) wins over the remembered one. The toggle
   (#theme-toggle, in the header of every page with one) flips light and dark. */
(function () {
  "use strict";
  var root = document.documentElement;
  var KEY = "game-replay.theme";
  root.classList.add("js");
  function stored() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function effective() {
    var theme = root.getAttribute("data-theme");
    if (theme === "dark" || theme === "light") return theme;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  if (!root.hasAttribute("data-theme-fixed")) {
    var saved = stored();
    if (saved === "dark" || saved === "light") root.setAttribute("data-theme", saved);
  }
  function label(button) {
    var dark = effective() === "dark";
    button.setAttribute("aria-pressed", dark ? "true" : "false");
    button.title = dark ? "Switch to the light theme" : "Switch to the dark theme";
    button.textContent = dark ? "\u2600" : "\u263e";
  }
  // if the page's scripts never start the board (a script that failed to load), show the page as
  // it came from the server rather than nothing
  window.addEventListener("load", function () {
    setTimeout(function () {
      if (!root.classList.contains("js-ready")) root.classList.remove("js");
    }, 3000);
  });
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme-toggle");
    if (!button) return;
    button.hidden = false;
    label(button);
    button.addEventListener("click", function () {
      var next = effective() === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      root.removeAttribute("data-theme-fixed");
      try { window.localStorage.setItem(KEY, next); } catch (e) { /* private mode: this page only */ }
      label(button);
      document.dispatchEvent(new CustomEvent("themechange", { detail: next }));
    });
  });
})();
