// The desk follows the night: when anything changes (a team answers, the checker
// finishes, the assistant decides), the desk is drawn again from a fresh copy of the
// page; never while the host is in the middle of a form. Only #desk-live is swapped:
// the projector's preview beside it is a frame that follows the projector's own version,
// so a phone's save never makes it fetch the projector's picture again.
(function () {
  "use strict";
  if (!document.getElementById("now")) return;
  function busy() {
    var el = document.activeElement;
    return el && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && el.type !== "submit";
  }
  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("desk-live");
    var mine = document.getElementById("desk-live");
    if (!fresh || !mine) { window.location.reload(); return; }
    Array.prototype.forEach.call(mine.querySelectorAll("canvas"), function (canvas) {
      if (canvas.chart) canvas.chart.destroy();
    });
    mine.replaceWith(document.importNode(fresh, true));
  }
  function poll() {
    var now = document.getElementById("now");
    fetch(now.dataset.liveUrl, {cache: "no-store", headers: {Accept: "application/json"}})
      .then(function (resp) { return resp.ok ? resp.json() : null; })
      .then(function (data) {
        if (!data || data.version === now.dataset.version || busy()) return null;
        return fetch(window.location.href, {cache: "no-store"}).then(function (resp) {
          return resp.ok ? resp.text() : null;
        }).then(function (html) { if (html !== null && !busy()) swap(html); });
      })
      .then(function () { setTimeout(poll, 2000); })
      .catch(function () { setTimeout(poll, 4000); });
  }
  setTimeout(poll, 2000);

  // The preview is the projector's page at 1280×720, scaled to the width it is given.
  var box = document.querySelector("#screen-preview .preview-box");
  if (box && window.ResizeObserver) {
    new ResizeObserver(function () {
      box.style.setProperty("--preview-scale", String(box.clientWidth / 1280));
    }).observe(box);
  }
})();
