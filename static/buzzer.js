// The buzzer phone and its projector view (issue 15, OQ-4).
// Clock sync: every exchange sends the phone's time and reports when the previous
// answer came back, so the server estimates this phone's clock from its own stamps.
// A press is sent on touchstart with the phone's own time; the order comes from the
// server once the one-second window has closed. The SSE stream's "look" carries the
// state itself (no request follows); the state is polled every 2 s as a fallback.
(function () {
  "use strict";
  var P = window.AnswerdeskPhone;
  var root = document.getElementById("buzzer");
  var phone = P.of(root.dataset.code);
  var screen = root.dataset.screen === "1";
  var t = root.dataset;
  var token = phone.token();
  // A game whose part joins its own players on this page (OpenQuiz, OQ-1) keeps the page.
  var joinsHere = !!document.querySelector("[data-buzzer-join]");
  if (!token && !screen && !joinsHere) { location.replace(root.dataset.joinUrl); return; }
  var button = document.getElementById("press");
  var last = null;
  var current = null;
  var pressedFor = null;

  var fill = P.fill;
  function now() { return Math.round(performance.timeOrigin + performance.now()); }

  function sync() {
    var sent = now();
    var body = {client_ms: sent};
    if (last) body.last = last;
    phone.request("POST", "/clock", {token: token, body: body, once: true}).then(function (r) {
      last = {client_ms: sent, server_ms: r.body.server_ms, received_ms: now()};
    }).catch(function () {});
  }

  // OpenQuiz (OQ-1, OQ-4, OQ-8): this team's captain, the answer timer, a pause or a stop.
  var myTeam = null;
  var answerEnds = null;
  var pressEnds = null;
  var answering = null;
  if (token && !screen) {
    phone.request("GET", "/sheet", {token: token})
      .then(function (r) { if (r.body.team) myTeam = r.body.team.name; }).catch(function () {});
  }
  document.addEventListener("oq:me", function (ev) { myTeam = ev.detail.team; renderRoom(); });
  if (window.oqMe) myTeam = window.oqMe.team;
  function renderRoom() {
    var room = document.getElementById("room");
    var oq = room.oq;
    if (!oq) { room.textContent = ""; return; }
    var parts = [];
    var mine = (oq.teams || []).filter(function (x) { return x.team === myTeam; })[0];
    if (mine && mine.captain) parts.push(fill(t.tCaptain, {name: mine.captain}));
    var c = oq.clock || {};
    if (c.stopped) parts.push(c.stopped.reason === "idle" ? t.tStoppedIdle : t.tStoppedLifetime);
    else if (c.paused) parts.push(t.tPaused);
    else if (answering && answerEnds) {
      parts.push(fill(t.tAnswering, {team: answering,
        s: Math.max(0, Math.ceil((answerEnds - Date.now()) / 1000))}));
    } else if (pressEnds) {  // OQ-4.1: nobody has pressed yet
      parts.push(fill(t.tPressLeft, {s: Math.max(0, Math.ceil((pressEnds - Date.now()) / 1000))}));
    }
    room.textContent = parts.join(" · ");
  }
  function room(oq) {
    var el = document.getElementById("room");
    el.oq = oq;
    var a = oq && oq.clock && oq.clock.answer;
    answering = a ? a.team : null;
    // The server's deadline on this phone's clock (offset from the last sync exchange).
    var offset = last ? last.server_ms - (last.client_ms + last.received_ms) / 2 : 0;
    answerEnds = a ? a.deadline_ms - offset : null;
    var p = oq && oq.clock && oq.clock.press;
    pressEnds = p ? p.deadline_ms - offset : null;
    renderRoom();
  }
  setInterval(renderRoom, 1000);

  // The projector fits the screen (fit.js) at its root size, every size here being in
  // rem: after each picture of the state and each media load.
  function fitScreen() { window.fitToViewport(document.documentElement); }
  if (screen) {
    window.addEventListener("resize", fitScreen);
    document.addEventListener("load", fitScreen, true);
    document.addEventListener("loadedmetadata", fitScreen, true);
  }

  function render(state) {
    if (screen) window.requestAnimationFrame(fitScreen);
    document.dispatchEvent(new CustomEvent("buzzer:state", {detail: state}));
    room(state.oq);
    var b = state.buzzer;
    var title = document.getElementById("question");
    var phase = document.getElementById("phase");
    var order = document.getElementById("order");
    if (!b) { title.textContent = t.tWaiting; return; }
    var key = b.round + "/" + b.question + "/" + b.attempt;
    if (current !== key) { current = key; if (button) button.classList.remove("pressed"); }
    title.textContent = fill(t.tQuestion, {r: b.round, q: b.question});
    // Until the window closes the state says "armed" to everyone (no phone may learn
    // that another pressed, issue 31); this phone knows of its own press.
    phase.textContent = b.state === "closed" ? t.tClosed
      : pressedFor === key ? t.tCollecting : t.tArmed;
    order.textContent = "";
    b.order.forEach(function (o) {
      var li = document.createElement("li");
      var who = o.player ? fill(t.tPresser, {player: o.player, team: o.team}) : o.team;
      li.textContent = who + (o.place > 1 ? " · " + fill(t.tBy, {ms: o.margin_ms}) : "");
      li.dataset.team = o.team;
      o.flags.forEach(function (f) {
        var text = {reading: t.tFlagReading, before_question: t.tFlagImpossible,
                    after_arrival: t.tFlagImpossible, early_claim: t.tFlagEarly}[f];
        if (!text) return;
        var s = document.createElement("span");
        s.className = "flag";
        s.textContent = " (" + text + ")";
        li.appendChild(s);
      });
      order.appendChild(li);
    });
    if (button) button.disabled = b.state === "closed" || pressedFor === key;
  }

  function look() {
    phone.request("GET", "/state", {bare: true})
      .then(function (r) { render(r.body); }).catch(function () {
        document.getElementById("phase").textContent = t.tOffline;
      });
  }

  function press(ev) {
    var at = now();
    if (ev) ev.preventDefault();
    if (!current || button.disabled) return;
    var parts = current.split("/");
    if (navigator.vibrate) navigator.vibrate(60);
    button.classList.add("pressed");
    pressedFor = current;
    // once: a press sent again seconds later would only arrive after its window
    phone.request("POST", "/buzz", {token: token, once: true,
      body: {round: +parts[0], question: +parts[1], pressed_at_ms: at}})
      .then(function (r) {
        document.getElementById("result").textContent = r.status === 202 ? t.tPressed
          : r.body.message;
        look();
        if (r.status === 202) setTimeout(look, 1100);  // the window has closed by then
      }).catch(function () {
        document.getElementById("result").textContent = t.tOffline;
      });
  }

  if (button) {
    button.addEventListener("touchstart", press, {passive: false});
    button.addEventListener("mousedown", press);
    for (var i = 0; i < 5; i++) setTimeout(sync, i * 300);
    setInterval(sync, 5000);
  }
  document.addEventListener("buzzer:look", look);
  if (window.EventSource) {
    new EventSource(phone.api + "/stream").addEventListener("look", function (ev) {
      var pushed = JSON.parse(ev.data);
      if (pushed.state) render(pushed.state); else look();
    });
  }
  setInterval(look, 2000);
  look();
})();
