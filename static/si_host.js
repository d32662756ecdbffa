// The Своя игра desk's open buttons: the question opens through core's start endpoint
// (the same call as the API's clients); without script the form posts to the desk.
// The desk follows the game by itself: every 3 s it reads its own page again and puts
// in the current question (the answers as they come) and the protests, unless the host
// is choosing something there.
(function () {
  "use strict";
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.dataset || !form.dataset.api) { return; }
    ev.preventDefault();
    var error = document.getElementById("si-error");
    fetch(form.dataset.api, {
      method: "POST", credentials: "same-origin", body: "{}",
      headers: {"Content-Type": "application/json", "Accept": "application/json",
                "X-CSRFToken": form.elements.csrf_token.value}
    }).then(function (resp) {
      if (resp.ok) { window.location.hash = "current"; window.location.reload(); return; }
      return resp.json().then(function (body) {
        error.textContent = body.message || String(resp.status);
        error.hidden = false;
      });
    }).catch(function () {
      error.textContent = form.dataset.offline || "";
      error.hidden = false;
    });
  });

  var LIVE = ["current", "protests"];
  function busy(section) {
    var active = document.activeElement;
    return active && section.contains(active) && /^(SELECT|INPUT|TEXTAREA)$/.test(active.tagName);
  }
  function follow() {
    fetch(window.location.pathname, {cache: "no-store", credentials: "same-origin"})
      .then(function (resp) { return resp.ok ? resp.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var fresh = new DOMParser().parseFromString(html, "text/html");
        LIVE.forEach(function (id) {
          var mine = document.getElementById(id);
          var theirs = fresh.getElementById(id);
          if (!mine || !theirs || busy(mine)) return;
          if (mine.innerHTML !== theirs.innerHTML) mine.innerHTML = theirs.innerHTML;
        });
      })
      .catch(function () { return null; })
      .then(function () { setTimeout(follow, 3000); });
  }
  setTimeout(follow, 3000);
}());
