// OpenQuiz players on the buzzer phone (OQ-1, OQ-8). A phone without a player's token
// shows the join form (team name and the player's; the first player of a team is its
// captain); an existing team takes a player with its invitation, which every player's
// phone shows under "Invite teammates" (a link and its QR code); the captain hands the
// captaincy to a teammate. Every press, pick, choice and bid is the player's, with
// their own token (kept in localStorage). A banned player's phone is told so and stays
// out: when it joins again it sends the token it held ("previous"), which the server
// refuses under any name. The invitation travels in the link's fragment (#team=…&
// invite=…), as the team token does: it never reaches the server's logs.
(function () {
  "use strict";
  var root = document.getElementById("oq-me");
  if (!root) return;
  var P = window.AnswerdeskPhone;
  var t = root.dataset;
  var phone = P.of(t.code);
  var hash = new URLSearchParams(location.hash.slice(1));
  var token = phone.token();  // a link's token: linked.js, asked first
  var invite = hash.get("invite");  // a teammate's invitation link
  var me = null;
  var form = el("oq-join");
  var refusal = el("oq-refusal");

  function el(id) { return document.getElementById(id); }
  var fill = P.fill;
  function refuse(message) {
    refusal.textContent = message || "";
    refusal.hidden = !message;
  }
  function noButton() {  // no player on this phone: nothing to press (buzzer.css)
    document.body.classList.add("oq-no-player");
  }
  function call(method, path, body, auth) {
    return phone.request(method, "/oq/" + path, {token: auth ? token : null,
                                                 body: body || undefined});
  }
  function joining(team) {
    form.hidden = false;
    team = team || (invite && hash.get("team"));
    noButton();
    if (!team) return;
    el("oq-join-team").value = team;
    el("oq-join-player").focus();  // invited: only their own name is left to type
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var button = form.querySelector("button");
    button.disabled = true;
    var body = {team: el("oq-join-team").value, player: el("oq-join-player").value};
    if (invite) body.invite = invite;
    if (token) body.previous = token;
    call("POST", "join", body, false).then(function (res) {
      if (res.status === 201) {
        phone.keep(res.body.token);
        history.replaceState(null, "", location.pathname + location.search);
        location.reload();
        return;
      }
      refuse(res.body.message);
      button.disabled = false;
    }).catch(function () { refuse(t.tNetwork); button.disabled = false; });
  });

  function handOver(name) {
    call("POST", "captain", {player: name}, true).then(function (res) {
      refuse(res.status < 300 ? "" : res.body.message);
      document.dispatchEvent(new Event("buzzer:look"));
    }).catch(function () { refuse(t.tNetwork); });
  }

  // "Invite teammates": the team's invitation, asked for once, when first opened.
  var shown = el("oq-invite");
  shown.addEventListener("toggle", function () {
    if (!shown.open || shown.dataset.loaded) return;
    call("GET", "invite", null, true).then(function (res) {
      if (res.status !== 200) { refuse(res.body.message); return; }
      shown.dataset.loaded = "1";
      el("oq-invite-qr").innerHTML = res.body.qr;  // drawn by the server (answerdesk/qr.py)
      var link = el("oq-invite-link");
      link.href = res.body.url;
      link.textContent = res.body.url;
      shown.scrollIntoView({block: "start"});  // above the button, which holds the lower half
    }).catch(function () { refuse(t.tNetwork); });
  });

  // The captaincy as the state shows it: the captain sees "Make … captain" for each
  // teammate; the buttons are rebuilt only when the teammates change. Every player
  // sees "Invite teammates" while the team has room (OQ-1: 3 players).
  document.addEventListener("buzzer:state", function (ev) {
    var oq = ev.detail.oq;
    if (!me || !oq) return;
    var mine = (oq.teams || []).filter(function (x) { return x.team === me.team; })[0];
    if (!mine) return;
    shown.hidden = mine.players.length >= 3;  // OQ-1: a team of 3 is full
    var captain = mine.captain === me.player;
    el("oq-you").textContent = fill(captain ? t.tYouCaptain : t.tYou,
                                    {player: me.player, team: me.team});
    var mates = captain ? mine.players.filter(function (p) { return p !== me.player; }) : [];
    el("oq-captaincy").hidden = !mates.length;
    var box = el("oq-mates");
    if (box.dataset.shown !== mates.join("\n")) {
      box.dataset.shown = mates.join("\n");
      box.textContent = "";
      mates.forEach(function (name) {
        var b = document.createElement("button");
        b.type = "button";
        b.textContent = fill(t.tMake, {player: name});
        b.addEventListener("click", function () { handOver(name); });
        box.appendChild(b);
      });
    }
  });

  if (!token) { joining(null); return; }
  call("GET", "me", null, true).then(function (res) {
    if (res.status === 200 && res.body.player) {
      me = {team: res.body.team, player: res.body.player};
      window.oqMe = me;  // for the page's scripts that load after this answer came
      document.dispatchEvent(new CustomEvent("oq:me", {detail: me}));
      document.dispatchEvent(new Event("buzzer:look"));
    } else if (res.status === 200) {
      invite = token;  // the team's share link: the team token is its invitation
      joining(res.body.team);
    } else if (res.status === 401) {
      phone.forget();  // kicked (not banned): this phone may join again
      joining(null);
    } else {
      refuse(res.body.message);  // banned: this phone stays out, under any name
      noButton();
    }
  }).catch(function () { refuse(t.tNetwork); });
})();
