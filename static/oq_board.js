// The OpenQuiz board, question and final on the buzzer phone and the projector (OQ-2,
// OQ-6). The captain of the team with the turn picks on the board; every phone and the
// projector show the pick, then the question once the host starts it (text; on the
// projector its picture, sound or film). The final: bans in turn on the captains'
// phones, a sealed bet (1 to the score; a team at 0 or below sits out, told why), the
// question, one written answer a team, then the results. The state comes from
// buzzer.js ("buzzer:state"); the server decides and refuses, its message is shown.
(function () {
  "use strict";
  var root = document.getElementById("oq-game");
  if (!root) return;
  var P = window.AnswerdeskPhone;
  var t = root.dataset;
  var phone = P.of(t.code);
  var screen = t.screen === "1";
  var token = new URLSearchParams(location.hash.slice(1)).get("token") || phone.token();
  var me = null;
  var state = null;
  var mediaShown = null;

  function el(id) { return document.getElementById(id); }
  var fill = P.fill;
  function refuse(message) {
    el("oq-game-refusal").textContent = message || "";
    el("oq-game-refusal").hidden = !message;
  }
  function send(path, body) {
    return phone.request("POST", "/oq/" + path, {token: token, body: body})
      .then(function (r) {
        refuse(r.status < 300 ? "" : r.body.message);
        document.dispatchEvent(new Event("buzzer:look"));
        return r.status < 300;
      }).catch(function () { refuse(t.tNetwork); return false; });
  }
  function captain(oq) {
    if (!me) return false;
    var mine = (oq.teams || []).filter(function (x) { return x.team === me.team; })[0];
    return !!(mine && mine.captain === me.player);
  }
  function myScore(oq) {
    var row = (oq.scores || []).filter(function (s) { return me && s.team === me.team; })[0];
    return row ? row.points : 0;
  }

  function drawBoard(oq, play) {
    var box = el("oq-board");
    var board = oq.board;
    var busy = play && play.state !== "done";
    box.hidden = !board || (play && play.state === "open") || !!(oq.final && oq.final.open
      && (!play || play.state === "done"));
    if (box.hidden) return;
    var mayPick = !screen && !busy && captain(oq) && me.team === oq.turn;
    var sig = JSON.stringify([board, mayPick]);
    if (box.dataset.sig === sig) return;
    box.dataset.sig = sig;
    box.textContent = "";
    var h = document.createElement("h2");
    h.textContent = board.name;
    box.appendChild(h);
    board.themes.forEach(function (theme) {
      var row = document.createElement("div");
      row.className = "oq-theme";
      var name = document.createElement("span");
      name.className = "oq-theme-name";
      name.textContent = theme.name;
      row.appendChild(name);
      var cells = document.createElement("div");
      cells.className = "oq-cells";
      row.appendChild(cells);
      theme.cells.forEach(function (cell) {
        var b = document.createElement("button");
        b.type = "button";
        b.textContent = cell.played ? "·" : String(cell.value);
        b.className = "oq-cell" + (cell.played ? " played" : "") + (cell.picked ? " picked" : "");
        b.dataset.question = board.round + "-" + cell.question;
        b.disabled = !mayPick || cell.played;
        b.addEventListener("click", function () {
          send("pick", {round: board.round, question: cell.question});
        });
        cells.appendChild(b);
      });
      box.appendChild(row);
    });
  }

  function drawQuestion(play) {
    var box = el("oq-question");
    var shown = play && play.state !== "picked" && (play.text || (play.media || []).length);
    box.hidden = !shown;
    if (!shown) return;
    el("oq-q-head").textContent = (play.theme ? play.theme + " · " : "") + play.value;
    el("oq-q-text").textContent = play.text || "";
    var key = play.round + "/" + play.question + "/" + play.state;
    if (mediaShown === key) return;
    mediaShown = key;
    var media = el("oq-q-media");
    media.textContent = "";
    (play.media || []).forEach(function (m) {
      if (!screen && m.kind !== "image") return;  // phones: text and pictures; sound on the projector
      var node = document.createElement(m.kind === "image" ? "img" : m.kind);
      node.src = m.url;
      if (m.kind !== "image") { node.autoplay = true; node.controls = true; }
      node.alt = "";
      media.appendChild(node);
    });
  }

  function drawFinal(oq, play) {
    var f = oq.final;
    var box = el("oq-final");
    var on = !!(f && f.open && (!play || play.state === "done"));
    box.hidden = !on;
    if (!on) return false;
    var lead = captain(oq);
    var mineIn = me && f.finalists.indexOf(me.team) >= 0;
    var themes = el("oq-themes");
    var banning = f.remaining.length > 1;
    themes.hidden = !banning;  // once one theme is left the status names it
    var mayBan = !screen && banning && lead && me.team === f.bans_next;
    var sig = JSON.stringify([f.themes, mayBan]);
    if (themes.dataset.sig !== sig) {
      themes.dataset.sig = sig;
      themes.textContent = "";
      f.themes.forEach(function (theme) {
        var b = document.createElement("button");
        b.type = "button";
        b.textContent = theme.name;
        b.className = theme.banned ? "banned" : "";
        b.disabled = !mayBan || theme.banned;
        b.addEventListener("click", function () { send("final/ban", {theme: theme.number}); });
        themes.appendChild(b);
      });
    }
    var status = banning ? (mayBan ? t.tYourBan : fill(t.tBans, {team: f.bans_next || "—"}))
      : fill(t.tTheme, {theme: f.theme});
    var betIn = me && f.bet_teams.indexOf(me.team) >= 0;
    var done = f.results.length && f.results.length === f.bet_teams.length;
    if (!banning && !f.question) {
      status += " · " + fill(t.tBetWait, {done: f.bets, all: f.finalists.length});
    }
    if (!screen && me && !mineIn && !betIn) {
      status += " · " + fill(t.tSitOut, {score: myScore(oq)});
    } else if (!screen && betIn && !f.question && !banning) {
      status += " · " + t.tBetDone;
    }
    if (f.question) status = fill(t.tTheme, {theme: f.theme});
    el("oq-status").textContent = done ? t.tResults : status;
    if (!screen) {
      var bet = el("oq-bet");
      bet.hidden = banning || betIn || !mineIn || !lead || !!f.question;
      el("oq-bet-label").textContent = fill(t.tBetMax, {score: myScore(oq)});
      el("oq-bet-amount").max = String(Math.max(1, myScore(oq)));
      var answered = me && f.answered.indexOf(me.team) >= 0;
      el("oq-final-answer").hidden = !f.question || !betIn || answered || done;
      if (answered && f.question && !done) el("oq-status").textContent += " · " + t.tAnswered;
    }
    var q = el("oq-question");
    q.hidden = !f.question;
    if (f.question) {
      el("oq-q-head").textContent = f.theme;
      el("oq-q-text").textContent = f.question;
      el("oq-q-media").textContent = f.answer ? fill(t.tAnswer, {answer: f.answer}) : "";
    }
    var results = el("oq-results");
    results.textContent = "";
    f.results.forEach(function (r) {
      var li = document.createElement("li");
      li.textContent = fill(r.accepted ? t.tResultRight : t.tResultWrong, {team: r.team, bet: r.bet});
      results.appendChild(li);
    });
    return true;
  }

  function drawScores(oq, final) {
    var table = el("oq-scores");
    table.hidden = !(screen || final) || !(oq.scores || []).length;
    var body = table.querySelector("tbody");
    body.textContent = "";
    var place = 0;
    var last = null;
    (oq.scores || []).forEach(function (s, i) {
      if (s.points !== last) { place = i + 1; last = s.points; }
      var tr = document.createElement("tr");
      tr.dataset.team = s.team;
      [place, s.team, s.points].forEach(function (v) {
        var td = document.createElement("td");
        td.textContent = String(v);
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  }

  function render(s) {
    state = s;
    var oq = s.oq;
    if (!oq) return;
    var play = oq.play;
    var open = play && play.state === "open";
    var press = el("press");
    if (press && !open) press.disabled = true;  // nothing to press while the board is up
    // The last question's buzzer lines stay out of the way of the board and the final.
    document.body.classList.toggle("oq-idle", !open);
    drawBoard(oq, play);
    drawQuestion(play);
    var final = drawFinal(oq, play);
    document.body.classList.toggle("oq-final-on", final);
    drawScores(oq, final);
    if (final) return;
    var status = "";
    if (oq.board && (!play || play.state === "done")) {
      status = !screen && me && captain(oq) && me.team === oq.turn ? t.tYourPick
        : fill(t.tTurn, {team: oq.turn || "—"});
    } else if (play && play.state === "picked") {
      status = fill(t.tPicked, {theme: play.theme || "", value: play.value});
    }
    el("oq-status").textContent = status;
  }

  if (!screen) {
    el("oq-bet").addEventListener("submit", function (ev) {
      ev.preventDefault();
      send("final/bet", {amount: parseInt(el("oq-bet-amount").value, 10)});
    });
    el("oq-final-answer").addEventListener("submit", function (ev) {
      ev.preventDefault();
      send("final/answer", {text: el("oq-final-text").value}).then(function (ok) {
        if (ok) el("oq-final-text").value = "";
      });
    });
  }
  document.addEventListener("buzzer:state", function (ev) { render(ev.detail); });
  function whoami(found) { me = found; if (state) render(state); }
  document.addEventListener("oq:me", function (ev) { whoami(ev.detail); });
  if (window.oqMe) whoami(window.oqMe);
})();
