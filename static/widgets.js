// Answer widgets per round kind on the phone sheet, and the rules' moments on the
// phone: jokers (BG-J1-J3), the wildcard choice (BG-R5.0), the shoot-out (BG-S3).
// sheet.js calls begin(sheet), question(...) for each question, end(); every edit
// still goes through sheet.js's offline queue, with structured fields beside the
// text the checker reads (the server derives the same text: widgets.answer_text).
(function () {
  "use strict";
  var P = window.AnswerdeskPhone;
  var root = document.getElementById("sheet");
  var s = document.getElementById("widget-strings").dataset;
  var phone = P.of(root.dataset.code);
  var el = P.el;
  var NUMBER_WORDS = {
    "едно": 1, "един": 1, "една": 1, "две": 2, "два": 2, "три": 3, "четири": 4, "пет": 5,
    "шест": 6, "седем": 7, "осем": 8, "девет": 9, "десет": 10, "один": 1, "одна": 1,
    "четыре": 4, "пять": 5, "шесть": 6, "семь": 7, "восемь": 8, "девять": 9, "десять": 10,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10
  };
  var JOKER_LABEL = {double: s.double, copy: s.copy, first_letter: s.firstLetter};
  var state = {play: {}, active: null, signature: "", numberInputs: {}, timer: null};

  function send(method, path, body) {
    return phone.request(method, path, {token: phone.token(), body: body});
  }

  function reload() { if (window.AnswerSheet) window.AnswerSheet.reload(); }

  function signature(play) {
    // What changes the page; the shoot-out's clock, own numbers and who has handed
    // theirs in do not (a redraw would wipe the box a team is typing in).
    return JSON.stringify(play || {}, function (k, v) {
      return k === "seconds_left" || k === "numbers" || k === "missing" ? undefined : v;
    });
  }

  function numberOf(text) {
    var t = (text || "").trim().toLowerCase();
    if (/^\d+$/.test(t)) return parseInt(t, 10);
    return NUMBER_WORDS[t] || null;
  }

  function button(label, cls, onClick) {
    var b = el("button", cls, label);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  function joker(kind, round, q, extra) {
    var body = {kind: kind, round: round.number, question: q.number};
    Object.keys(extra || {}).forEach(function (k) { body[k] = extra[k]; });
    return send("POST", "/jokers", body).then(function (r) {
      if (!r.ok) window.alert(r.body.message || "refused");
      reload();
    });
  }

  // ------------------------------------------------------------------ panel

  function panel() {
    var node = document.getElementById("play-panel");
    if (!node) {
      node = el("section", "play-panel");
      node.id = "play-panel";
      root.parentNode.insertBefore(node, root);
    }
    node.textContent = "";
    var play = state.play;
    if (play.jokers) {
      var left = play.jokers.remaining.map(function (k) { return JOKER_LABEL[k]; });
      var p = el("p", "jokers-left", s.jokersLeft + ": ");
      p.id = "jokers-left";
      p.appendChild(el("strong", null, left.length ? left.join(" · ") : s.noneLeft));
      node.appendChild(p);
    }
    var wild = play.wildcard;
    if (wild && wild.can_choose) {
      var box = el("div", "wildcard-choice");
      box.id = "wildcard-choice";
      box.appendChild(el("p", "qtext", s.wildcardChoose));
      Object.keys(wild.scenarios).forEach(function (id) {
        box.appendChild(button(id + " " + (s["sc-" + id.replace(".", "-")] || wild.scenarios[id]),
          "choice", function () {
            send("POST", "/wildcard", {scenario: id}).then(function (r) {
              if (!r.ok) window.alert(r.body.message || "refused");
              reload();
            });
          }));
      });
      node.appendChild(box);
    } else if (wild && wild.scenario) {
      node.appendChild(el("p", "muted", s.wildcardChosen + ": " + wild.scenario + " " +
        (s["sc-" + wild.scenario.replace(".", "-")] || wild.scenario_name)));
    }
    if (play.shootout) shootout(node, play.shootout);
  }

  function shootout(node, so) {
    var box = el("div", "shootout-box");
    box.id = "shootout";
    box.appendChild(el("h2", null, so.locked ? s.shootoutLocked : s.shootout));
    if (!so.locked) {
      var clock = el("p", "clock", so.seconds_left + " " + s.seconds);
      clock.id = "shootout-clock";
      box.appendChild(clock);
      var left = so.seconds_left;
      clearInterval(state.timer);
      state.timer = setInterval(function () {
        left = Math.max(0, left - 1);
        clock.textContent = left + " " + s.seconds;
        if (!left) { clearInterval(state.timer); setTimeout(reload, 1000); }
      }, 1000);
    }
    var inputs = [];
    so.questions.forEach(function (text, i) {
      var label = el("label", null, (i + 1) + ". " + text);
      var input = el("input", "answer");
      input.inputMode = "decimal";
      input.dataset.wkey = "shootout/" + i;
      input.value = so.numbers && so.numbers[i] !== null && so.numbers[i] !== undefined
        ? String(so.numbers[i]) : "";
      input.readOnly = so.locked;
      label.appendChild(input);
      box.appendChild(label);
      inputs.push(input);
    });
    var status = el("span", "status");
    box.appendChild(status);
    var pending = null;
    inputs.forEach(function (input) {
      input.addEventListener("input", function () {
        clearTimeout(pending);
        pending = setTimeout(function () {
          var numbers = inputs.map(function (x) { return x.value.trim() || null; });
          send("PUT", "/shootout", {numbers: numbers}).then(function (r) {
            status.className = "status " + (r.ok ? "saved" : "refused");
            status.textContent = r.ok ? s.shootoutSaved : (r.body.message || "refused");
          });
        }, 300);
      });
    });
    if (so.locked && so.order) {
      box.appendChild(el("p", "big", so.order.map(function (l) { return l.join(" = "); })
        .join(" › ")));
    }
    node.appendChild(box);
  }

  // ------------------------------------------------------------------ widgets

  function choices(box, input, q, options, labels, readOnly, save, current) {
    input.hidden = true;
    var row = el("div", "choices");
    options.forEach(function (option, i) {
      var b = button(labels[i], "choice" + (option === current ? " chosen" : ""), function () {
        if (readOnly) return;
        Array.prototype.forEach.call(row.children, function (c) { c.classList.remove("chosen"); });
        b.classList.add("chosen");
        input.value = option;
        save(option, {choice: option});
      });
      b.dataset.option = option;
      b.setAttribute("aria-pressed", option === current ? "true" : "false");
      b.disabled = readOnly;
      row.appendChild(b);
    });
    box.insertBefore(row, input.parentNode.nextSibling);
  }

  function song(box, input, key, fields, readOnly, save) {
    var wrap = el("div", "song");
    var title = el("input", "answer song-title");
    var artists = el("input", "answer song-artists");
    title.dataset.wkey = key + "#title";
    artists.dataset.wkey = key + "#artists";
    [title, artists].forEach(function (f) { f.readOnly = readOnly; f.autocomplete = "off"; });
    var lineMode = !!input.value && !(fields && (fields.title || fields.artists));
    title.value = fields && fields.title || "";
    artists.value = fields && fields.artists || "";
    wrap.appendChild(el("label", "small", s.title));
    wrap.lastChild.appendChild(title);
    wrap.appendChild(el("label", "small", s.artists));
    wrap.lastChild.appendChild(artists);
    input.placeholder = s.lineHint;
    function show() {
      wrap.hidden = lineMode;
      input.hidden = !lineMode;
      toggle.textContent = lineMode ? s.twoFields : s.oneLine;
    }
    var toggle = button("", "link song-toggle", function () { lineMode = !lineMode; show(); });
    function changed() {
      var a = artists.value.trim(), t = title.value.trim();
      var text = a && t ? a + " – " + t : (a || t);
      input.value = text;
      save(text, {title: title.value, artists: artists.value});
    }
    title.addEventListener("input", changed);
    artists.addEventListener("input", changed);
    box.insertBefore(wrap, input.parentNode.nextSibling);
    if (!readOnly) box.insertBefore(toggle, wrap.nextSibling);
    show();
  }

  function pairs(box, input, spec, fields, readOnly, save) {
    input.hidden = true;
    var chosen = {};
    if (fields && fields.pairs) chosen = Object.assign({}, fields.pairs);
    else (input.value.match(/(\d)\s*([А-Г])/g) || []).forEach(function (p) {
      chosen[p[0]] = p[p.length - 1];
    });
    var grid = el("div", "pairs");
    function draw() {
      grid.textContent = "";
      spec.numbers.forEach(function (n) {
        var row = el("div", "pair-row");
        row.appendChild(el("span", "pair-number", n + " →"));
        spec.letters.forEach(function (letter) {
          var takenBy = Object.keys(chosen).filter(function (m) {
            return m !== n && chosen[m] === letter;
          })[0];
          var b = button(letter, "choice pair" + (chosen[n] === letter ? " chosen" : ""),
            function () {
              if (chosen[n] === letter) delete chosen[n]; else chosen[n] = letter;
              var text = spec.numbers.filter(function (m) { return chosen[m]; })
                .map(function (m) { return m + chosen[m]; }).join(" ");
              input.value = text;
              save(text, {pairs: Object.assign({}, chosen)});
              draw();
            });
          b.dataset.pair = n + letter;
          // A letter already paired with another number cannot be picked again (BG-R5.5).
          b.disabled = readOnly || !!takenBy;
          row.appendChild(b);
        });
        grid.appendChild(row);
      });
    }
    draw();
    box.insertBefore(grid, input.parentNode.nextSibling);
  }

  function numbers(box, input, round, q, readOnly, save) {
    var mine = state.numberInputs[round.number] = state.numberInputs[round.number] || {};
    mine[q.number] = input;
    input.inputMode = "text";
    var chips = el("div", "number-chips");
    chips.dataset.round = round.number;
    box.insertBefore(chips, input.parentNode.nextSibling);
    // BG-R5.4: a number is the answer to one question only. The save goes to the server,
    // whose refusal the sheet keeps beside the line until the team changes it (a message
    // drawn here alone was lost at the sheet's next redraw).
    input.addEventListener("input", function () { drawChips(round.number); });
    chips.addEventListener("click", function (event) {
      var n = event.target.dataset && event.target.dataset.number;
      if (!n || readOnly || event.target.disabled) return;
      input.value = n;
      save(n, {number: n});
      drawChips(round.number);
    });
  }

  function usedBy(roundNumber, n, except) {
    var inputs = state.numberInputs[roundNumber] || {};
    return Object.keys(inputs).filter(function (qn) {
      return String(qn) !== String(except) && numberOf(inputs[qn].value) === n;
    })[0];
  }

  function drawChips(roundNumber) {
    var rows = root.querySelectorAll(".number-chips[data-round='" + roundNumber + "']");
    Array.prototype.forEach.call(rows, function (row) {
      row.textContent = "";
      row.appendChild(el("span", "muted", s.used + ": "));
      for (var n = 1; n <= 10; n++) {
        var who = usedBy(roundNumber, n, null);
        var chip = el("button", "chip" + (who ? " used" : ""), String(n));
        chip.type = "button";
        chip.dataset.number = String(n);
        chip.disabled = !!who;
        if (who) chip.title = s.usedIn + " " + who;
        row.appendChild(chip);
      }
    });
  }

  function jokerTools(box, input, round, q, key, fields, save) {
    var play = state.play.jokers;
    if (!play) return;
    var played = play.played.filter(function (j) {
      return j.round === round.number && j.question === q.number;
    });
    played.forEach(function (j) {
      if (j.kind === "first_letter") {
        var hint = el("p", "hint", s.hint + ": ");
        hint.appendChild(el("strong", "hint-letter", j.hint));
        box.appendChild(hint);
      } else if (j.kind === "copy") {
        input.hidden = true;
        Array.prototype.forEach.call(box.querySelectorAll(".choices, .song, .song-toggle"),
          function (n) { n.hidden = true; });
        box.appendChild(el("p", "copies", s.copies + " " + j.copy_of));
      } else if (j.kind === "double") {
        var second = el("input", "answer second");
        second.placeholder = s.second;
        second.dataset.wkey = key + "#second";
        second.value = fields && fields.second || "";
        second.readOnly = input.readOnly;
        var both = function () {
          save(input.value, {text: input.value, second: second.value});
        };
        input.addEventListener("input", function (event) {
          event.stopImmediatePropagation();
          both();
        });
        second.addEventListener("input", both);
        box.insertBefore(second, input.parentNode.nextSibling);
      }
    });
    if (round.state !== "open" || input.readOnly || played.length) return;
    var tools = el("div", "joker-tools");
    play.remaining.forEach(function (kind) {
      if (play.rounds[kind].indexOf(round.number) < 0) return;
      if (kind === "first_letter") {
        tools.appendChild(button(s.firstLetter, "joker first-letter", function () {
          if (window.confirm(s.confirmFirst)) joker("first_letter", round, q, {confirm: true});
        }));
      } else if (kind === "double") {
        tools.appendChild(button(s.double, "joker double", function () {
          joker("double", round, q);
        }));
      } else if (kind === "copy" && state.play.teams && state.play.teams.length) {
        tools.appendChild(button(s.copy, "joker copy", function () {
          var pick = el("div", "copy-pick");
          var select = el("select");
          state.play.teams.forEach(function (name) {
            select.appendChild(el("option", null, name));
          });
          pick.appendChild(el("span", null, s.copyOf + " "));
          pick.appendChild(select);
          pick.appendChild(button(s.copyGo, "joker", function () {
            joker("copy", round, q, {copy_of: select.value});
          }));
          tools.appendChild(pick);
        }));
      }
    });
    if (tools.children.length) box.appendChild(tools);
  }

  window.AnswerWidgets = {
    begin: function (sheet) {
      var a = document.activeElement;
      state.active = a && a.dataset ? a.dataset.wkey : null;
      state.caret = state.active && a.selectionStart;
      state.play = sheet.play || {};
      state.hasPlay = Boolean(sheet.play);
      state.version = sheet.version;
      state.signature = signature(sheet.play);
      state.numberInputs = {};
      panel();
    },
    question: function (box, input, round, q, pending, save) {
      var spec = q.widget || {kind: "text"};
      var key = round.number + "/" + q.number;
      var saved = q.answer || {};
      var fields = pending ? pending.fields : saved.fields;
      if (q.state && q.state !== "open") input.readOnly = true;
      var readOnly = input.readOnly;
      box.dataset.widget = spec.kind;
      if (spec.kind === "truefalse") {
        choices(box, input, q, spec.options, [s.true, s.false], readOnly, save, input.value);
      } else if (spec.kind === "abcd") {
        // BG-R1: each button carries the option's text when the pack gave it ("Б) Марица").
        choices(box, input, q, spec.options, spec.options.map(function (o) {
          return spec.texts && spec.texts[o] ? o + ") " + spec.texts[o] : o;
        }), readOnly, save, input.value);
        if (spec.texts) box.classList.add("with-texts");
      } else if (spec.kind === "song") {
        song(box, input, key, fields, readOnly, save);
      } else if (spec.kind === "pairs") {
        pairs(box, input, spec, fields, readOnly, save);
      } else if (spec.kind === "number") {
        numbers(box, input, round, q, readOnly, save);
      }
      jokerTools(box, input, round, q, key, fields, save);
    },
    end: function () {
      Object.keys(state.numberInputs).forEach(drawChips);
      if (!state.active) return;
      var target = document.querySelector("[data-wkey='" + state.active + "']");
      if (target && !target.readOnly) {
        target.focus();
        try { target.setSelectionRange(state.caret, state.caret); } catch (e) { /* ignore */ }
      }
    }
  };

  // The rules' moments (a joker, the wildcard, the next final question, a team joining
  // for the copy joker) do not change round states, but each moves the state's
  // version: fetch their small payload when it moved, and reload on a change. While a
  // shoot-out waits for its outcome (its lock comes by the clock), every 3 s.
  function fetchPlay() {
    var token = phone.token();
    if (!token) return;
    phone.request("GET", "/play", {token: token}).then(function (r) {
      if (r.ok && r.body && signature(r.body) !== state.signature) reload();
    }).catch(function () { /* offline: sheet.js shows it */ });
  }
  window.AnswerWidgets.stateSeen = function (version) {
    if (!state.hasPlay || !version || version === state.version) return;
    state.version = version;
    fetchPlay();
  };
  setInterval(function () {
    var so = state.play.shootout;
    if (state.hasPlay && so && !so.decided) fetchPlay();
  }, 3000);
})();
