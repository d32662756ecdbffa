// A link with a player's token (a share link, a QR code) on the buzzer and Своя игра
// phones: as on the answer sheet, a phone already playing takes the link's player only
// when its user says so; a stranger's link cannot silently take the phone over
// (issue 31). The token leaves the address either way; the rest of the fragment (an
// OpenQuiz invitation) stays for the page's scripts.
(function () {
  "use strict";
  var me = document.currentScript;
  var fragment = new URLSearchParams(location.hash.slice(1));
  var linked = fragment.get("token");
  if (!linked) return;
  window.AnswerdeskPhone.of(me.dataset.code).adopt(linked, me.dataset.tSwitchPlayer);
  fragment.delete("token");
  var rest = fragment.toString();
  history.replaceState(null, "", location.pathname + location.search + (rest ? "#" + rest : ""));
})();
