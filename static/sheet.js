// The team's answer sheet. Every edit goes into a local queue (localStorage)
// and is sent until the server acknowledges it, so a weak venue Wi-Fi, a
// reload or a phone restart loses nothing (BG-E2: a refusal after the lock is
// shown, never silently dropped).
(function () {
  "use strict";
  var P = window.AnswerdeskPhone;
  var root = document.getElementById("sheet");
  var t = root.dataset;
  var phone = P.of(root.dataset.code, root.dataset.joinUrl);
  var sheetKey = phone.key("sheet");  // the last sheet read, for a start offline
  // Queued edits are kept per team token: an edit is only ever sent with the token
  // of the team that typed it, whatever team the phone shows later.
  function queueKeyOf(tok) { return phone.key("queue") + ":" + tok; }
  var oldQueueKey = phone.key("queue");  // one queue per event, before issue 17
  if (localStorage.getItem(oldQueueKey) !== null && phone.token()) {
    localStorage.setItem(queueKeyOf(phone.token()), localStorage.getItem(oldQueueKey));
    localStorage.removeItem(oldQueueKey);
  }

  // A link with a token (the share link, a QR code): a switch of team forgets the
  // last sheet read, which was the other team's.
  var hash = new URLSearchParams(location.hash.slice(1));
  var linked = hash.get("token");
  if (linked) {
    if (phone.adopt(linked, t.tSwitchTeam)) localStorage.removeItem(sheetKey);
    history.replaceState(null, "", location.pathname);
  }
  var token = phone.token();
  if (!token) { location.replace(root.dataset.joinUrl); return; }
  var queueKey = queueKeyOf(token);

  var shareLink = document.getElementById("share-link");
  if (shareLink) {
    shareLink.value = location.origin + location.pathname + "#token=" + token;
    shareLink.addEventListener("focus", function () { shareLink.select(); });
  }

  var statesSeen = "";
  var clocks = [];      // question clocks shown (CHGK-1.1), ticked by tick()
  var skew = 0;         // server time − this phone's time, from the last sheet
  var fields = {};      // "r/q" -> {input, status, round}
  var refused = {};     // "r/q" -> message
  var refusedText = {}; // "r/q" -> the text the server refused, kept in its field
  var backoff = 1000;
  var flushTimer = null;
  var flushing = false;

  var setNet = P.online;
  var el = P.el;
  function loadQueue() { return P.load(queueKey, {}); }
  function storeQueue(q) { P.store(queueKey, q); }

  function setStatus(key, kind, text) {
    var f = fields[key];
    if (!f) return;
    f.status.className = "status " + kind;
    f.status.textContent = text;
  }

  function savedText(answer) {
    return t.tSaved + " " + answer.saved_at.slice(11, 19) + " · " + t.tReceipt + " " + answer.receipt;
  }

  function render(sheet) {
    document.getElementById("team-name").textContent = sheet.team.name;
    var queue = loadQueue();
    var active = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.key : null;
    var caret = active && document.activeElement.selectionStart;
    if (window.AnswerWidgets) window.AnswerWidgets.begin(sheet);
    root.textContent = "";
    fields = {};
    clocks = [];
    var rounds = sheet.rounds.slice().sort(function (a, b) {
      var ao = a.state === "open" ? 0 : 1, bo = b.state === "open" ? 0 : 1;
      return ao - bo || b.number - a.number;
    });
    if (!rounds.length) root.appendChild(el("p", "muted", t.tNone));
    rounds.forEach(function (round) {
      var section = el("section", "round " + round.state);
      section.dataset.round = round.number;
      var head = el("h2", null, t.tRound + " " + round.number + ": " + round.name);
      var badge = el("span", "badge " + round.state,
        round.state === "open" ? t.tOpen : round.state === "revealed" ? t.tRevealed : t.tLocked);
      head.appendChild(badge);
      section.appendChild(head);
      var questions = round.questions.slice();
      // A round on the question clock: the question started last comes first.
      if (questions.some(function (q) { return q.clock; })) {
        questions.sort(function (a, b) {
          return (b.clock ? b.clock.opens_at : "").localeCompare(a.clock ? a.clock.opens_at : "");
        });
      }
      questions.forEach(function (q) {
        var key = round.number + "/" + q.number;
        var box = el("div", "question");
        var label = el("label", null);
        label.appendChild(el("span", "qnum", q.number + ". "));
        label.appendChild(el("span", "qtext", q.text));
        var input = el("input", "answer");
        input.type = "text";
        input.maxLength = 500;
        input.autocomplete = "off";
        input.setAttribute("autocapitalize", "sentences");
        input.dataset.key = key;
        input.name = "q" + key.replace("/", "-");
        var pending = queue[key];
        // A refused line keeps what the team typed beside the refusal, until changed.
        input.value = pending ? pending.text
          : key in refusedText ? refusedText[key] : (q.answer ? q.answer.text : "");
        input.readOnly = round.state !== "open" || (q.clock && q.clock.state !== "open");
        label.appendChild(input);
        box.appendChild(label);
        if (q.clock) {
          var clock = el("div", "clock");
          clock.dataset.question = q.number;
          box.insertBefore(clock, label);
          clocks.push({node: clock, box: box, input: input, key: key,
                       answerUntil: Date.parse(q.clock.answer_until),
                       locksAt: Date.parse(q.clock.locks_at)});
        }
        var status = el("span", "status");
        box.appendChild(status);
        fields[key] = {input: input, status: status, round: round.number};
        if (refused[key]) setStatus(key, "refused", t.tRefused + ": " + refused[key]);
        else if (pending) setStatus(key, "waiting", t.tWaiting);
        else if (q.answer) setStatus(key, "saved", savedText(q.answer));
        if (round.state === "revealed" || q.correct_answer) {  // ЧГК: one question shown
          var correct = el("p", "correct " + (q.verdict || ""), t.tCorrect + ": " + q.correct_answer);
          box.appendChild(correct);
        }
        if (window.AnswerWidgets) {
          window.AnswerWidgets.question(box, input, round, q, pending,
            function (text, f) { edited(key, text, f); });
        }
        input.addEventListener("input", function () { edited(key, input.value); });
        section.appendChild(box);
      });
      root.appendChild(section);
    });
    if (active && fields[active] && !fields[active].input.readOnly) {
      fields[active].input.focus();
      try { fields[active].input.setSelectionRange(caret, caret); } catch (e) { /* ignore */ }
    }
    if (window.AnswerWidgets) window.AnswerWidgets.end();
    tick();
  }

  function mmss(ms) {
    var secs = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(secs / 60) + ":" + ("0" + secs % 60).slice(-2);
  }

  // CHGK-1.1: the minute to discuss, then the seconds to hand in, counted from the
  // server's deadlines (corrected by the clock skew); at the end the card locks.
  function tick() {
    var now = Date.now() + skew;
    clocks.forEach(function (c) {
      var phase;
      if (now < c.answerUntil) {
        phase = "discuss";
        c.node.textContent = t.tDiscuss + " " + mmss(c.answerUntil - now);
      } else if (now < c.locksAt) {
        phase = "hand-in";
        c.node.textContent = t.tHandIn + " " + mmss(c.locksAt - now);
      } else {
        phase = "locked";
        c.node.textContent = t.tClockLocked;
        c.input.readOnly = true;
        c.box.querySelectorAll("input, button, textarea, select").forEach(function (n) {
          if (n.tagName === "INPUT" || n.tagName === "TEXTAREA") n.readOnly = true;
          else n.disabled = true;
        });
      }
      c.node.className = "clock " + phase;
      c.box.dataset.clock = phase;
    });
  }

  function edited(key, text, structured) {
    var queue = loadQueue();
    // A time-based edit counter: the newest edit wins across the team's phones,
    // and a replay of an acknowledged edit changes nothing on the server.
    var last = queue[key] ? queue[key].seq : 0;
    queue[key] = {text: text, fields: structured, seq: Math.max(Date.now(), last + 1)};
    storeQueue(queue);
    delete refused[key];
    delete refusedText[key];
    setStatus(key, "waiting", t.tSaving);
    clearTimeout(flushTimer);
    flushTimer = setTimeout(flush, 400);
  }

  function flush() {
    if (flushing) return;
    var queue = loadQueue();
    var keys = Object.keys(queue);
    if (!keys.length) return;
    flushing = true;
    var key = keys[0];
    var item = queue[key];
    var parts = key.split("/");
    // ?with=state: the save's answer carries the state poll's, so a typing phone
    // polls only when it has not saved for 3 s (issue 33).
    phone.request("PUT", "/answers/" + parts[0] + "/" + parts[1] + "?with=state", {
      token: token, body: {text: item.text, fields: item.fields, seq: item.seq}
    }).then(function (r) {
      flushing = false;
      setNet(true);
      backoff = 1000;
      var current = loadQueue();
      var sameEdit = current[key] && current[key].seq === item.seq;
      if (r.status === 200) {
        var carried = r.body.state;
        delete r.body.state;
        if (sameEdit) { delete current[key]; storeQueue(current); setStatus(key, "saved", savedText(r.body)); }
        remember(r.body);
        // The server kept a newer edit from another phone of the team: show it.
        if (sameEdit && r.body.text !== item.text && fields[key]) {
          fields[key].input.value = r.body.text;
          pollState(true);
        } else if (carried) {
          seenState(carried, false);
        }
      } else if (r.status === 401) {
        phone.leave();
        return;
      } else if (r.status >= 500 || r.status === 429 || r.status === 408) {
        return retryLater();
      } else {
        // 409 round locked, 400 invalid, 404 gone: refused visibly, not retried.
        refused[key] = (r.body.error === "round_locked" && t.tRoundLocked)
          || r.body.message || String(r.status);
        refusedText[key] = item.text;
        delete current[key];
        storeQueue(current);
        setStatus(key, "refused", t.tRefused + ": " + refused[key]);
        if (r.status === 409) pollState(true);
      }
      flush();
    }).catch(function () {
      flushing = false;
      setNet(false);
      Object.keys(loadQueue()).forEach(function (k) { setStatus(k, "waiting", t.tWaiting); });
      retryLater();
    });
  }

  // Keep the last sheet's copy current, so a start offline shows acknowledged answers.
  function remember(answer) {
    var last = heldSheet();
    if (!last) return;
    last.rounds.forEach(function (round) {
      if (round.number !== answer.round) return;
      round.questions.forEach(function (q) { if (q.number === answer.question) q.answer = answer; });
    });
    P.store(sheetKey, last);
  }

  function retryLater() {
    flushing = false;
    clearTimeout(flushTimer);
    flushTimer = setTimeout(flush, backoff);
    backoff = Math.min(backoff * 2, 15000);
  }

  // The team's sheet (or its changes, with "?since"), or null when the token is no
  // longer valid: then back to the join page.
  function readSheet(query) {
    return phone.request("GET", "/sheet" + query, {token: token, leave: [401]})
      .then(function (r) { return r.left ? null : r.body; });
  }

  function heldSheet() { return P.load(sheetKey, null); }

  function loadSheet() {
    return readSheet("").then(function (sheet) {
      if (sheet) shown(sheet);
    }).catch(function () {
      setNet(false);
      // Started without network (the page came from the service worker's cache):
      // show the last sheet with the queued edits, and keep trying to send them.
      var last = heldSheet();
      if (last && !Object.keys(fields).length) { render(last); flush(); }
    });
  }

  function shown(sheet) {
    setNet(true);
    if (sheet.now) skew = Date.parse(sheet.now) - Date.now();
    statesSeen = JSON.stringify(sheet.states) + JSON.stringify(sheet.question || null);
    P.store(sheetKey, sheet);
    render(sheet);
    flush();
  }

  // Every 10 s while a round is open: what the team's other phones changed since the
  // last read (the server sends the whole sheet instead when anything else may have
  // changed). Drawn again only if an answer changed.
  function loadChanges() {
    var last = heldSheet();
    if (!last || !last.now || !last.version) return loadSheet();
    readSheet("?since=" + encodeURIComponent(last.now) +
              "&version=" + encodeURIComponent(last.version)).then(function (body) {
      if (!body) return;
      if (!body.delta) return shown(body);
      setNet(true);
      var changed = false;
      body.answers.forEach(function (answer) {
        last.rounds.forEach(function (round) {
          if (round.number !== answer.round) return;
          round.questions.forEach(function (q) {
            if (q.number === answer.question &&
                JSON.stringify(q.answer) !== JSON.stringify(answer)) {
              q.answer = answer;
              changed = true;
            }
          });
        });
      });
      skew = Date.parse(body.now) - Date.now();
      last.now = body.now;
      P.store(sheetKey, last);
      if (changed) render(last);
      flush();
    }).catch(function () { setNet(false); });
  }

  var lastFull = Date.now();
  var pollTimer = null;
  // The state, from a poll or from a save's answer: the sheet again when a round or the
  // clock moved, or now and then while a round is open (other phones of the team may
  // have changed answers), but never over an answer being typed. The next poll is
  // 3 s after the last state, however it came.
  function seenState(body, force) {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(pollState, 3000);
    var seen = JSON.stringify(body.rounds) + JSON.stringify(body.question || null);
    var anyOpen = body.rounds.some(function (r) { return r.state === "open"; });
    var typing = Object.keys(loadQueue()).length > 0;
    if (force || seen !== statesSeen) {
      lastFull = Date.now();
      loadSheet();
    } else if (anyOpen && !typing && Date.now() - lastFull > 10000) {
      lastFull = Date.now();
      loadChanges();
    }
    if (window.AnswerWidgets && window.AnswerWidgets.stateSeen) {
      window.AnswerWidgets.stateSeen(body.version);
    }
  }
  function pollState(force) {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(pollState, 3000);
    phone.request("GET", "/state", {bare: true}).then(function (r) {
      var body = r.body;
      setNet(true);
      seenState(body, force);
      flush();
    }).catch(function () { setNet(false); });
  }

  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", {scope: "/e/"}).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      var assets = document.querySelectorAll("script[src], link[rel=stylesheet]");
      var urls = [location.pathname].concat(Array.prototype.map.call(assets, function (node) {
        return node.src || node.href;
      }));
      registration.active.postMessage({cache: urls});
    }).catch(function () { /* no offline reload, the queue still works */ });
  }
  window.addEventListener("online", function () { backoff = 1000; flush(); });
  window.AnswerSheet = {reload: loadSheet};
  loadSheet();
  pollTimer = setTimeout(pollState, 3000);
  setInterval(tick, 250);
})();
