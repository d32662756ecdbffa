// The host's OpenQuiz play page follows the game: when the state everyone polls moves
// (a pick, a press, a stake, a bet, an answer), the page reloads, unless the host is
// typing in one of its fields (then it waits for the field to be left).
(function () {
  "use strict";
  var root = document.getElementById("oq-desk");
  if (!root) return;
  var seen = null;
  function typing() {
    var a = document.activeElement;
    return a && (a.tagName === "INPUT" || a.tagName === "SELECT" || a.tagName === "TEXTAREA")
      && a.value !== "";
  }
  function look() {
    fetch("/api/events/" + root.dataset.code + "/state").then(function (r) { return r.json(); })
      .then(function (s) {
        var oq = s.oq || {};
        var b = s.buzzer || {};
        var now = JSON.stringify([oq.play, oq.picked, oq.scores, oq.final, oq.turn,
          b.state, b.order, oq.clock && oq.clock.paused, oq.teams]);
        if (seen !== null && now !== seen && !typing()) { location.reload(); return; }
        if (!typing()) seen = now;
      }).catch(function () {});
  }
  if (window.EventSource) {
    new EventSource("/api/events/" + root.dataset.code + "/stream")
      .addEventListener("look", look);
  }
  setInterval(look, 2000);
  look();
})();
