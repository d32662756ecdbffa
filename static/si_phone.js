// The Своя игра player's phone (issue 15; SI-0, SI-1.2, SI-1.3, SI-2.2, SI-2.4, SI-3).
// The board comes from GET /state (public: the question being played, its lists
// once published, the scores) and the player's own part from GET /sheet (token:
// the answer sent, points, place, warnings, protests), so a phone that reloads
// finds everything where the game stands. Both are fetched when the SSE stream
// says "look" (formats/buzzer/stream.py) and polled every 3 s as a fallback.
// An answer the network lost stays on the phone and goes again, while its question
// is open, once the network is back.
(function () {
  "use strict";
  var P = window.AnswerdeskPhone;
  var root = document.getElementById("si");
  var t = root.dataset;
  var phone = P.of(root.dataset.code, t.joinUrl);
  var pendingKey = phone.key("si-answer");
  var token = phone.token();
  if (!token) { location.replace(t.joinUrl); return; }

  var $ = function (id) { return document.getElementById(id); };
  var current = null;  // the question on the board: {round, question, state, ...}
  var mine = null;  // the player's own part of the sheet
  var claimed = {};  // "r/q" -> the claim's result, shown until the next question
  var target = null;  // the question a СТОП is being written about: {round, question}
  var looking = false;
  var sending = false;
  var again = false;

  var fill = P.fill;
  var online = P.online;
  function show(id, visible) { $(id).hidden = !visible; }
  function refusal(message) {
    $("si-error").textContent = message || "";
    show("si-error", !!message);
  }
  function key(q) { return q ? q.round + "/" + q.question : ""; }
  // Not a player of this event (401, 404): the phone leaves for the join page.
  function getJson(path, auth) {
    var opts = auth ? {token: token, cache: "no-store", leave: [401, 404]}
      : {bare: true, cache: "no-store"};
    return phone.request("GET", path, opts).then(function (r) {
      if (r.left) throw new Error("not a player of this event");
      return r.body;
    });
  }
  function post(path, body) {
    return phone.request("POST", path, {token: token, body: body});
  }

  function questionText(sheet, q) {
    var found = "";
    sheet.rounds.forEach(function (r) {
      if (r.number !== q.round) return;
      r.questions.forEach(function (item) { if (item.number === q.question) found = item.text; });
    });
    return found || "";
  }

  // The pack's name of the theme; "Theme n" only for a programme built without a pack.
  function themeName(q) { return q.theme_name || fill(t.tTheme, {n: q.theme}); }

  function renderBoard(sheet) {
    var board = $("si-board");
    board.dataset.state = current ? current.state : "";
    if (!current) {
      $("si-where").textContent = "";
      $("si-value").textContent = t.tWaiting;
      $("si-question").textContent = "";
      $("si-status").textContent = "";
      return;
    }
    $("si-where").textContent = fill(t.tWhere, {round: current.round, theme: themeName(current)});
    $("si-value").textContent = fill(t.tValue, {value: current.value});
    $("si-question").textContent = questionText(sheet, current);
    $("si-status").textContent = current.state === "open" ? t.tOpen
      : current.state === "closed" ? t.tClosed : t.tPublished;
  }

  function renderAnswer() {
    var own = mine.current && key(mine.current) === key(current) ? mine.current : null;
    var removed = mine.removed;
    var open = current && current.state === "open";
    var author = own && !own.may_answer;
    show("si-answer", !!open && !removed && !author);
    var sent = own && own.answer !== null
      ? fill(own.late ? t.tSentLate : t.tSent, {answer: own.answer}) : "";
    var sentBox = $("si-sent");
    if (sentBox.dataset.pending !== "1") sentBox.textContent = sent;
    $("si-answer").dataset.sent = own && own.answer !== null ? "1" : "0";
    var notice = author && current.state === "open" ? t.tAuthor : "";
    var claim = claimed[key(current)];
    if (claim) notice = claim;
    $("si-notice").textContent = notice;
  }

  function renderResults() {
    var published = current && current.state === "published";
    show("si-results", !!published);
    if (!published) return;
    $("si-correct").textContent = current.answer || "";
    var lists = $("si-lists");
    lists.textContent = "";
    current.lists.forEach(function (line) {
      var li = document.createElement("li");
      li.textContent = line;
      li.className = line.charAt(0) === "+" ? "plus" : line.charAt(0) === "0" ? "zero" : "minus";
      lists.appendChild(li);
    });
    var own = mine.current && key(mine.current) === key(current) ? mine.current : null;
    // SI-2.4: an answer the lists miss may be claimed, once, until the next question.
    show("si-claim", !!own && own.answer !== null && !own.listed && !own.claim &&
         !claimed[key(current)]);
    if (own && own.claim === "pending") $("si-notice").textContent = t.tClaimPending;
    var filed = mine.protests.filter(function (p) {
      return p.round === current.round && p.question === current.question;
    });
    if (filed.length) $("si-notice").textContent = protestText(filed[filed.length - 1].state);
  }

  function protestText(state) {
    return {filed: t.tProtestFiled, heard: t.tProtestHeard, upheld: t.tProtestUpheld,
            rejected: t.tProtestRejected}[state] || "";
  }
  function awaiting(state) { return state === "filed" || state === "heard"; }
  function which(q) {
    return fill(t.tStopWhich, {round: q.round, theme: themeName(q), value: q.value});
  }

  // SI-3: a СТОП for each question whose window is open (the server's list: published,
  // no other theme started since, the player in competition): the board's question and
  // the earlier ones of its theme. Tapping one names it above the protest's text.
  function renderProtests() {
    var items = mine.protestable || [];
    var list = $("si-stop-list");
    var drawn = JSON.stringify(items);
    if (list.dataset.drawn !== drawn) drawList(list, items);
    list.dataset.drawn = drawn;
    show("si-stop", items.length > 0);
    var chosen = items.filter(function (q) {
      return key(q) === key(target) && !awaiting(q.protest);
    });
    if (!chosen.length) target = null;
    show("si-protest", !!target);
  }

  // Redrawn only when the list changed, so a finger on a button never loses it to a poll.
  function drawList(list, items) {
    list.textContent = "";
    items.forEach(function (q) {
      var li = document.createElement("li");
      li.dataset.round = q.round;
      li.dataset.question = q.question;
      var title = document.createElement("strong");
      title.textContent = which(q);
      var answer = document.createElement("span");
      answer.textContent = fill(t.tStopAnswer, {answer: q.answer || ""});
      li.append(title, answer);
      if (q.protest) {
        var state = document.createElement("span");
        state.className = "si-stop-state";
        state.textContent = protestText(q.protest);
        li.appendChild(state);
      }
      if (!awaiting(q.protest)) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "bad";
        button.textContent = t.tStop;
        button.addEventListener("click", function () { choose(q); });
        li.appendChild(button);
      }
      list.appendChild(li);
    });
  }

  function choose(q) {
    target = {round: q.round, question: q.question};
    $("si-protest-about").textContent = which(q);
    show("si-protest", true);
    $("si-protest-text").focus();
  }

  function renderMe() {
    $("si-player").textContent = mine.player;
    $("si-points").textContent = mine.points;
    $("si-place").textContent = mine.removed ? "" : !mine.in_competition ? t.tOut
      : mine.place ? fill(t.tPlace, {place: mine.place}) : "";
    show("si-warnings", mine.warnings > 0);
    $("si-warnings").textContent = mine.removed ? t.tRemoved
      : fill(t.tWarnings, {count: mine.warnings});
  }

  function render(state, sheet) {
    var before = key(current);
    current = state.si ? state.si.current : null;
    mine = sheet.si;
    if (key(current) !== before && before) {
      refusal("");
      $("si-text").value = "";
      $("si-sent").dataset.pending = "0";
    }
    renderBoard(sheet);
    renderMe();
    renderProtests();
    if (!current) {
      show("si-answer", false);
      show("si-results", false);
      $("si-notice").textContent = "";
      return;
    }
    renderAnswer();
    renderResults();
  }

  function pending() { return P.load(pendingKey, null); }

  // The answer kept while offline goes once the phone reads its question still open and
  // unanswered; otherwise it is dropped (answered, or the question moved on).
  function resend() {
    var kept = pending();
    if (!kept || !mine) return;
    var own = mine.current;
    if (current && current.state === "open" && key(current) === key(kept) &&
        own && key(own) === key(kept) && own.answer === null && !mine.removed) {
      send(kept);
    } else {
      localStorage.removeItem(pendingKey);
      $("si-sent").dataset.pending = "0";
      if ($("si-error").textContent === t.tKept) refusal("");
      if (current) renderAnswer();
    }
  }

  function send(body) {
    var button = $("si-answer").querySelector("button");
    var sentBox = $("si-sent");
    button.disabled = true;
    sending = true;
    refusal("");
    sentBox.dataset.pending = "1";
    sentBox.textContent = t.tSending;
    P.store(pendingKey, body);
    post("/si/answers", body).then(function (res) {
      online(true);
      localStorage.removeItem(pendingKey);
      sentBox.dataset.pending = "0";
      if (res.status === 201) $("si-text").value = "";
      else refusal(res.body.message);
      look();
    }).catch(function () {
      online(false);
      refusal(t.tKept);  // it goes again once the network is back (resend)
    }).then(function () { button.disabled = false; sending = false; });
  }

  function look() {
    if (looking) { again = true; return; }
    looking = true;
    Promise.all([getJson("/state", false), getJson("/sheet", true)]).then(function (res) {
      online(true);
      render(res[0], res[1]);
      if (!sending) resend();
    }).catch(function () { online(false); }).then(function () {
      looking = false;
      if (again) { again = false; look(); }
    });
  }

  $("si-answer").addEventListener("submit", function (ev) {
    ev.preventDefault();
    if (!current) return;
    send({round: current.round, question: current.question, text: $("si-text").value});
  });

  $("si-claim").addEventListener("click", function () {
    if (!current) return;
    var at = key(current);
    refusal("");
    post("/si/claims", {round: current.round, question: current.question}).then(function (res) {
      online(true);
      if (res.status === 200) claimed[at] = res.body.on_time ? t.tClaimOnTime : t.tClaimLate;
      else refusal(res.body.message);
      look();
    }).catch(function () { online(false); refusal(t.tNetwork); });
  });

  $("si-protest").addEventListener("submit", function (ev) {
    ev.preventDefault();
    if (!target) return;
    refusal("");
    post("/si/protests", {round: target.round, question: target.question,
                          text: $("si-protest-text").value}).then(function (res) {
      online(true);
      if (res.status === 201) { $("si-protest-text").value = ""; target = null; }
      else refusal(res.body.message);
      look();
    }).catch(function () { online(false); refusal(t.tNetwork); });
  });

  if (window.EventSource) {
    new EventSource(phone.api + "/stream").addEventListener("look", look);
  }
  setInterval(look, 3000);
  look();
})();
