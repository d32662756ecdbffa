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
  var t = root.dataset;
  var code = t.code;
  var key = "answerdesk:token:" + code;
  var hash = new URLSearchParams(location.hash.slice(1));
  var token = localStorage.getItem(key);  // a link's token: linked.js, asked first
  var invite = hash.get("invite");  // a teammate's invitation link
  var me = null;
  var form = el("oq-join");
  var refusal = el("oq-refusal");

  function el(id) { return document.getElementById(id); }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, k) { return values[k]; });
  }
  function refuse(message) {
    refusal.textContent = message || "";
    refusal.hidden = !message;
  }
  function noButton() {  // no player on this phone: nothing to press (buzzer.css)
    document.body.classList.add("oq-no-player");
  }
  function call(method, path, body, auth) {
    var headers = {"Content-Type": "application/json"};
    if (auth && token) headers.Authorization = "Bearer " + token;
    return fetch("/api/events/" + code + "/oq/" + path, {method: method, headers: headers,
      body: body ? JSON.stringify(body) : undefined})
      .then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); });
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
      if (res[0] === 201) {
        localStorage.setItem(key, res[1].token);
        history.replaceState(null, "", location.pathname + location.search);
        location.reload();
        return;
      }
      refuse(res[1].message);
      button.disabled = false;
    }).catch(function () { refuse(t.tNetwork); button.disabled = false; });
  });

  function handOver(name) {
    call("POST", "captain", {player: name}, true).then(function (res) {
      refuse(res[0] < 300 ? "" : res[1].message);
      document.dispatchEvent(new Event("buzzer:look"));
    }).catch(function () { refuse(t.tNetwork); });
  }

  // "Invite teammates": the team's invitation, asked for once, when first opened.
  var shown = el("oq-invite");
  shown.addEventListener("toggle", function () {
    if (!shown.open || shown.dataset.loaded) return;
    call("GET", "invite", null, true).then(function (res) {
      if (res[0] !== 200) { refuse(res[1].message); return; }
      shown.dataset.loaded = "1";
      el("oq-invite-qr").innerHTML = res[1].qr;  // drawn by the server (answerdesk/qr.py)
      var link = el("oq-invite-link");
      link.href = res[1].url;
      link.textContent = res[1].url;
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
    if (res[0] === 200 && res[1].player) {
      me = {team: res[1].team, player: res[1].player};
      window.oqMe = me;  // for the page's scripts that load after this answer came
      document.dispatchEvent(new CustomEvent("oq:me", {detail: me}));
      document.dispatchEvent(new Event("buzzer:look"));
    } else if (res[0] === 200) {
      invite = token;  // the team's share link: the team token is its invitation
      joining(res[1].team);
    } else if (res[0] === 401) {
      localStorage.removeItem(key);  // kicked (not banned): this phone may join again
      joining(null);
    } else {
      refuse(res[1].message);  // banned: this phone stays out, under any name
      noButton();
    }
  }).catch(function () { refuse(t.tNetwork); });
})();
