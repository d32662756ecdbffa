// The host's OpenQuiz play page follows the game: when the state everyone polls moves
// (a pick, a press, a stake, a bet, an answer), the page reloads, unless the host is
// typing in one of its fields (then it waits for the field to be left).
(function () {
  "use strict";
  var root = document.getElementById("oq-desk");
  if (!root) return;
  // Keys in one order whatever order the server wrote them in (the page's copy and
  // the API's may differ).
  function canonical(v) {
    if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
    if (v && typeof v === "object") {
      return "{" + Object.keys(v).sort().map(function (k) {
        return JSON.stringify(k) + ":" + canonical(v[k]);
      }).join(",") + "}";
    }
    return JSON.stringify(v === undefined ? null : v);
  }
  function signature(s) {
    var oq = s.oq || {};
    var b = s.buzzer || {};
    return canonical([oq.play, oq.picked, oq.scores, oq.final, oq.turn,
      b.state, b.order, oq.clock && oq.clock.paused, oq.teams]);
  }
  // What the page was drawn from: any later change reloads it, even one made before
  // this script's first look.
  var seen = signature(JSON.parse(root.dataset.state));
  function typing() {
    var a = document.activeElement;
    return a && (a.tagName === "INPUT" || a.tagName === "SELECT" || a.tagName === "TEXTAREA")
      && a.value !== "";
  }
  function look() {
    fetch("/api/events/" + root.dataset.code + "/state").then(function (r) { return r.json(); })
      .then(function (s) {
        if (signature(s) !== seen && !typing()) location.reload();
      }).catch(function () {});
  }
  if (window.EventSource) {
    new EventSource("/api/events/" + root.dataset.code + "/stream")
      .addEventListener("look", look);
  }
  setInterval(look, 2000);
  look();
})();
