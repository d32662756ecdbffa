// The projector follows the desk: poll a tiny version number, fetch the picture when it moves.
(function () {
  "use strict";
  var screen = document.getElementById("screen");
  function current() {
    var frame = screen.querySelector("[data-version]");
    return frame ? frame.dataset.version : "";
  }
  function redraw() {
    return fetch(screen.dataset.liveUrl, {cache: "no-store"}).then(function (resp) {
      return resp.ok ? resp.text() : null;
    }).then(function (html) {
      if (html !== null) screen.innerHTML = html;  // server-rendered, autoescaped fragment
    });
  }
  function poll() {
    fetch(screen.dataset.versionUrl, {cache: "no-store"}).then(function (resp) {
      return resp.ok ? resp.json() : null;
    }).then(function (data) {
      if (data && data.version !== current()) return redraw();
    }).catch(function () { /* keep the last picture on screen */ })
      .then(function () { setTimeout(poll, 1500); });
  }
  setTimeout(poll, 1500);
})();
