/* The legacy viewer's links are /#<code>. A fragment never reaches the server, so send it on
   as /?code=<code>; the server decodes it and redirects to the replay. */
(function () {
  "use strict";
  var code = location.hash.replace(/^#/, "");
  if (code && !/^\d+$/.test(code)) {
    location.replace("/?code=" + encodeURIComponent(decodeURIComponent(code)));
  }
})();
