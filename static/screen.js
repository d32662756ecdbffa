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

  // CHGK-1.1: the question clock counts down from the server's deadlines in the picture.
  function mmss(ms) {
    var secs = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(secs / 60) + ":" + ("0" + secs % 60).slice(-2);
  }
  var skews = {};
  function tick() {
    var node = screen.querySelector(".clock[data-locks-at]");
    if (!node) return;
    var d = node.dataset;
    if (!(d.now in skews)) skews = {}, skews[d.now] = Date.parse(d.now) - Date.now();
    var now = Date.now() + skews[d.now];
    var until = Date.parse(d.answerUntil), locks = Date.parse(d.locksAt);
    if (now < until) { node.textContent = d.tDiscuss + " " + mmss(until - now); node.className = "huge clock discuss"; }
    else if (now < locks) { node.textContent = d.tHandIn + " " + mmss(locks - now); node.className = "huge clock hand-in"; }
    else { node.textContent = d.tLocked; node.className = "huge clock locked"; }
  }
  setInterval(tick, 250);
  tick();
})();
