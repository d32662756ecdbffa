// The Своя игра desk's open buttons: the question opens through core's start endpoint
// (the same call as the API's clients); without script the form posts to the desk.
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
}());
