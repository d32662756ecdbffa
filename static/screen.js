// The projector refreshes itself: fetch the live fragment every few seconds.
(function () {
  "use strict";
  var screen = document.getElementById("screen");
  function refresh() {
    fetch(screen.dataset.liveUrl, {cache: "no-store"}).then(function (resp) {
      if (resp.ok) return resp.text();
      return null;
    }).then(function (html) {
      if (html !== null && html !== screen.dataset.last) {
        screen.dataset.last = html;
        screen.innerHTML = html;  // server-rendered, Jinja-autoescaped fragment
      }
    }).catch(function () { /* keep the last picture on screen */ });
  }
  setInterval(refresh, 3000);
})();
