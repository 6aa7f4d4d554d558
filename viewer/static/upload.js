/* Upload page: drag and drop, several files, each file's result shown in place.
   Without this script the form still posts and the server renders the results. */
(function () {
  "use strict";
  var form = document.getElementById("upload-form");
  if (!form || !window.fetch || !window.FormData) { return; }
  var input = document.getElementById("upload-files");
  var zone = document.getElementById("drop-zone");
  var chosen = document.getElementById("chosen");
  var resultsBox = document.getElementById("results-box");
  var results = document.getElementById("results");
  var button = document.getElementById("upload-button");
  var note = document.getElementById("shown-once-note");
  var dropped = [];
  var LABELS = {stored: "stored", stored_with_findings: "stored with findings", duplicate: "already there",
                refused: "refused"};

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function link(href, cls, text) {
    var a = el("a", cls, text);
    if (typeof href === "string" && href.charAt(0) === "/" && href.charAt(1) !== "/") { a.href = href; }
    return a;
  }
  function files() {
    var list = [];
    var i;
    for (i = 0; i < input.files.length; i++) { list.push(input.files[i]); }
    return list.concat(dropped);
  }
  function showChosen() {
    chosen.textContent = "";
    files().forEach(function (f) { chosen.appendChild(el("li", "", f.name + " (" + f.size + " bytes)")); });
  }
  input.addEventListener("change", showChosen);
  ["dragenter", "dragover"].forEach(function (name) {
    zone.addEventListener(name, function (e) { e.preventDefault(); zone.classList.add("dragging"); });
  });
  ["dragleave", "drop"].forEach(function (name) {
    zone.addEventListener(name, function (e) { e.preventDefault(); zone.classList.remove("dragging"); });
  });
  zone.addEventListener("drop", function (e) {
    var list = e.dataTransfer && e.dataTransfer.files;
    var i;
    for (i = 0; list && i < list.length; i++) { dropped.push(list[i]); }
    showChosen();
  });

  function renderFile(r) {
    var li = el("li", "result result-" + r.status);
    li.setAttribute("data-status", r.status);
    li.appendChild(el("span", "file-name", r.file));
    li.appendChild(document.createTextNode(" "));
    li.appendChild(el("span", "badge status", LABELS[r.status] || r.status));
    if (r.reason) { li.appendChild(document.createTextNode(" ")); li.appendChild(el("span", "reason", r.reason)); }
    if (r.games && r.games.length) {
      var ul = el("ul", "games");
      r.games.forEach(function (g) {
        var gi = el("li", "game game-" + g.status);
        if (g.url) {
          gi.appendChild(link(g.url, "view-link", g.status === "duplicate" ? "open the existing game" : "open the game"));
        }
        if (g.findings) {
          gi.appendChild(document.createTextNode(" "));
          gi.appendChild(el("span", "findings", g.findings + (g.findings === 1 ? " finding" : " findings")));
          if (g.triage_url) { gi.appendChild(document.createTextNode(" ")); gi.appendChild(link(g.triage_url, "triage-link", "triage")); }
        }
        if (g.reason) { gi.appendChild(document.createTextNode(" ")); gi.appendChild(el("span", "reason", g.source + ": " + g.reason)); }
        if (g.manage_url) {
          gi.appendChild(document.createTextNode(" "));
          gi.appendChild(link(g.manage_url, "manage-link", "delete or make public (shown once)"));
        }
        ul.appendChild(gi);
      });
      li.appendChild(ul);
    }
    return li;
  }

  input.required = false;  // dropped files count too: this script checks
  form.addEventListener("submit", function (e) {
    var list = files();
    if (!list.length) {
      e.preventDefault();
      results.textContent = "";
      if (note) { note.hidden = true; }
      results.appendChild(el("li", "result result-refused", "Choose or drop at least one file to upload."));
      resultsBox.hidden = false;
      return;
    }
    e.preventDefault();
    var data = new FormData();
    list.forEach(function (f) { data.append("files", f, f.name); });
    data.append("csrf_token", document.getElementById("csrf-token").value);
    button.disabled = true;
    button.textContent = "Uploading…";
    fetch("/upload", {method: "POST", body: data, credentials: "same-origin",
                      headers: {"Accept": "application/json",
                                "X-CSRF-Token": document.getElementById("csrf-token").value}})
      .then(function (response) {
        return response.json().then(function (body) { return {status: response.status, body: body}; });
      })
      .then(function (answer) {
        results.textContent = "";
        // the "shown only once" note, only when a delete link was given
        var given = (answer.body.files || []).some(function (r) {
          return (r.games || []).some(function (g) { return Boolean(g.manage_url); });
        });
        if (note) { note.hidden = !given; }
        if (answer.body.files) {
          answer.body.files.forEach(function (r) { results.appendChild(renderFile(r)); });
        } else {
          var li = el("li", "result result-refused");
          li.setAttribute("data-status", "refused");
          li.appendChild(el("span", "badge status", "refused"));
          li.appendChild(document.createTextNode(" "));
          li.appendChild(el("span", "reason", answer.body.error || ("error " + answer.status)));
          results.appendChild(li);
        }
        resultsBox.hidden = false;
        input.value = "";
        dropped = [];
        showChosen();
      })
      .catch(function (err) {
        results.textContent = "";
        if (note) { note.hidden = true; }
        results.appendChild(el("li", "result result-refused", "The upload failed: " + err));
        resultsBox.hidden = false;
      })
      .then(function () { button.disabled = false; button.textContent = "Upload"; });
  });
}());
