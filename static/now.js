// The desk follows the night: when anything changes (a team answers, the checker
// finishes, the assistant decides), the page is drawn again; never while the host
// is in the middle of a form.
(function () {
  "use strict";
  var now = document.getElementById("now");
  if (!now) return;
  var known = now.dataset.version;
  function busy() {
    var el = document.activeElement;
    return el && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && el.type !== "submit";
  }
  function poll() {
    fetch(now.dataset.liveUrl, {cache: "no-store", headers: {Accept: "application/json"}})
      .then(function (resp) { return resp.ok ? resp.json() : null; })
      .then(function (data) {
        if (data && data.version !== known && !busy()) { window.location.reload(); return; }
        setTimeout(poll, 2000);
      })
      .catch(function () { setTimeout(poll, 4000); });
  }
  setTimeout(poll, 2000);
})();
