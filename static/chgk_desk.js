// The ЧГК desk follows the room by itself (formats/chgk/host.py): while a question's
// clock runs it reloads every 3 s (keeping the scroll, never over a field being
// filled in, nor once the host has sent a form), and while the bids are collected it
// marks which phones have bid.
(function () {
  "use strict";
  var main = document.getElementById("chgk-desk");
  if (!main) return;

  function filling() {
    var a = document.activeElement;
    return a && /^(INPUT|SELECT|TEXTAREA)$/.test(a.tagName) && a.value !== "" &&
      a.type !== "hidden";
  }

  // Once the host has sent a form or followed a link, the page is leaving: a reload
  // then would cancel that request and lose the host's click.
  var leaving = false;
  document.addEventListener("submit", function (e) {
    if (!e.defaultPrevented) leaving = true;
  });
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a[href]");
    if (link && !e.defaultPrevented && link.getAttribute("href").charAt(0) !== "#") leaving = true;
  });

  if (main.dataset.clock === "open") {
    setInterval(function () { if (!filling() && !leaving) location.reload(); }, 3000);
    return;
  }
  if (!document.querySelector("form.auction")) return;
  setInterval(function () {
    fetch(location.pathname, {credentials: "same-origin"}).then(function (resp) {
      return resp.ok ? resp.text() : null;
    }).then(function (html) {
      if (!html) return;
      var fresh = new DOMParser().parseFromString(html, "text/html");
      document.querySelectorAll("form.auction").forEach(function (form) {
        var game = form.closest("section").id;
        var other = fresh.querySelector("#" + game + " form.auction");
        if (!other) return;
        form.querySelectorAll("tr[data-team]").forEach(function (row) {
          var cell = row.querySelector(".phone-bid");
          var name = row.dataset.team;
          var match = Array.prototype.find.call(other.querySelectorAll("tr[data-team]"),
            function (r) { return r.dataset.team === name; });
          var newCell = match && match.querySelector(".phone-bid");
          if (cell && newCell) cell.textContent = newCell.textContent;
        });
        var button = form.querySelector("button[type=submit]");
        var newButton = other.querySelector("button[type=submit]");
        if (button && newButton) button.textContent = newButton.textContent;
      });
    }).catch(function () { /* the next tick tries again */ });
  }, 3000);
})();
