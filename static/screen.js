// The projector follows the desk: poll a tiny version number, fetch the picture when it moves.
// A question's audio or video keeps playing across redraws of the same question; the desk's
// play / pause / replay ("play:<version>") is carried out once per press. The desk's
// preview of the projector (data-preview) shows the same picture and never plays a sound.
(function () {
  "use strict";
  var screen = document.getElementById("screen");
  var preview = Boolean(screen.dataset.preview);
  var applied = null;
  function current() {
    var frame = screen.querySelector("[data-version]");
    return frame ? frame.dataset.version : "";
  }
  function run(section) {
    var command = section.dataset.command || "";
    var player = section.querySelector("[data-media]");
    if (preview || !player || !command || command === applied) return;
    applied = command;
    var what = command.split(":")[0];
    if (what === "pause") { player.pause(); return; }
    if (what === "replay") player.currentTime = 0;
    var started = player.play();
    if (started && started.catch) {
      started.catch(function () {
        // The browser wants one click before it makes a sound: offer it on the screen.
        var unmute = section.querySelector(".unmute");
        if (!unmute) return;
        unmute.hidden = false;
        unmute.onclick = function () { unmute.hidden = true; player.play(); };
      });
    }
  }
  function show(html) {
    var next = document.createElement("div");
    next.innerHTML = html;  // server-rendered, autoescaped fragment
    var now = screen.querySelector("[data-question]");
    var coming = next.querySelector("[data-question]");
    if (now && coming && now.dataset.question === coming.dataset.question &&
        now.querySelector("[data-media]")) {
      var frame = screen.querySelector("[data-version]");
      frame.dataset.version = next.querySelector("[data-version]").dataset.version;
      if (coming.dataset.command) now.dataset.command = coming.dataset.command;
      run(now);
      screen.dataset.fitted = current();  // the same picture: it fits as it did
      return;
    }
    screen.innerHTML = html;
    var section = screen.querySelector("[data-question]");
    if (section) run(section);
    // A format's stylesheet in the picture (chgk_screen.css) applies once loaded: fit again.
    screen.querySelectorAll("link[rel=stylesheet]").forEach(function (link) {
      link.addEventListener("load", fit);
    });
    fit();
  }
  // Every view fits the screen it is on (1920x1080, 1280x720, the desk's preview): the
  // text shrinks step by step until nothing lies below or beside the viewport.
  function fit() {
    window.fitToViewport(document.body);
    screen.dataset.fitted = current();
  }
  window.addEventListener("resize", fit);
  // A picture or a clip takes its size once it has loaded: fit again then (issue 34).
  screen.addEventListener("load", fit, true);
  screen.addEventListener("loadedmetadata", fit, true);
  function redraw() {
    return fetch(screen.dataset.liveUrl, {cache: "no-store"}).then(function (resp) {
      return resp.ok ? resp.text() : null;
    }).then(function (html) {
      if (html !== null) show(html);
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
  var first = screen.querySelector("[data-question]");
  if (first) run(first);
  fit();
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
