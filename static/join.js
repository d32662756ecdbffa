// Join an event as a team; the token stays on this phone (localStorage).
(function () {
  "use strict";
  var root = document.getElementById("join");
  var phone = window.AnswerdeskPhone.of(root.dataset.code);
  if (phone.token()) {
    location.replace(root.dataset.sheetUrl);
    return;
  }
  var form = document.getElementById("join-form");
  var errorBox = document.getElementById("join-error");
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    errorBox.hidden = true;
    var button = form.querySelector("button");
    button.disabled = true;
    phone.request("POST", "/teams", {body: {
      name: document.getElementById("team-name").value,
      players: parseInt(document.getElementById("players").value || "1", 10)
    }}).then(function (r) {
      if (r.status === 201) {
        phone.keep(r.body.token);
        location.replace(root.dataset.sheetUrl);
      } else {
        errorBox.textContent = r.body.error === "name_taken" ? root.dataset.tNameTaken
          : r.body.message || root.dataset.tError;
        errorBox.hidden = false;
        button.disabled = false;
      }
    }).catch(function () {
      errorBox.textContent = root.dataset.tNetwork;
      errorBox.hidden = false;
      button.disabled = false;
    });
  });
})();
