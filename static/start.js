// The new event's host password arrives in the address's fragment (start.py): shown
// here once, then dropped from the address, so a refresh or the history keeps nothing.
(function () {
  "use strict";
  var hash = new URLSearchParams(location.hash.slice(1));
  var password = hash.get("password");
  if (!password) return;
  document.getElementById("new-password").textContent = password;
  document.getElementById("password-line").hidden = false;
  document.getElementById("password-warn").hidden = false;
  document.getElementById("password-gone").hidden = true;
  history.replaceState(null, "", location.pathname + location.search);
})();
