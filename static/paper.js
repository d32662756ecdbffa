// Paper entry (BG-E1): the phone's widgets, typed in by keyboard only. Tab or Enter moves
// to the next answer (Enter on the last one saves); on a choice or an All-in picker one
// key picks (the letter, its Latin look-alike or 1-4) and moves on; the number sheet
// shows the numbers used and will not save one twice (BG-R5.4). The server checks it all
// again (widgets.prepare_answer).
(function () {
  "use strict";
  // Picking a team or a round opens its sheet: at once with the mouse; from the keyboard
  // on Enter, so that the arrow keys can walk past other teams first.
  ["paper-team", "paper-round"].forEach(function (id) {
    var select = document.getElementById(id);
    if (!select) return;
    var keyed = false;
    select.addEventListener("keydown", function (ev) {
      keyed = true;
      if (ev.key === "Enter") { ev.preventDefault(); select.form.submit(); }
    });
    select.addEventListener("change", function () { if (!keyed) select.form.submit(); });
    select.addEventListener("blur", function () { keyed = false; });
  });
  var sheet = document.getElementById("paper-sheet");
  if (!sheet) return;

  var LETTER = {"а": "А", "a": "А", "1": "А", "б": "Б", "b": "Б", "2": "Б",
                "в": "В", "c": "В", "v": "В", "3": "В", "г": "Г", "d": "Г", "g": "Г", "4": "Г"};
  var TRUTH = {"в": "вярно", "д": "вярно", "t": "вярно", "y": "вярно", "1": "вярно",
               "+": "вярно", "н": "невярно", "f": "невярно", "n": "невярно", "0": "невярно",
               "-": "невярно"};

  // Each input and select is a stop; a radio group is one stop (its checked or first radio).
  function stops() {
    var seen = {};
    return [].filter.call(sheet.querySelectorAll(
      "input:not([type=hidden]), select, button[type=submit]"), function (el) {
      if (el.disabled || el.type !== "radio") return !el.disabled;
      if (seen[el.name]) return false;
      seen[el.name] = true;
      return true;
    }).map(function (el) {
      return el.type === "radio" ? sheet.querySelector(
        "input[name='" + el.name + "']:checked") || el : el;
    });
  }

  function advance(from) {
    var list = stops();
    var i = 0;
    while (i < list.length && list[i] !== from &&
           !(from.type === "radio" && list[i].name === from.name)) i++;
    var next = list[i + 1];
    // A song typed as title and performers needs no one-line field: Enter skips it.
    if (next && /-line$/.test(next.name) && /-artists$/.test(from.name) &&
        (from.value.trim() || sheet.elements[from.name.replace(/artists$/, "title")].value.trim())) {
      next = list[i + 2];
    }
    if (!next || next.type === "submit") { sheet.requestSubmit(); return; }
    next.focus();
    if (next.tagName === "INPUT" && next.type !== "radio") next.select();
  }

  // ------------------------------------------------------------ All-in (BG-R5.5)
  function pairSelects(widget) { return [].slice.call(widget.querySelectorAll("select")); }

  function drawPairs(widget) {
    var selects = pairSelects(widget);
    selects.forEach(function (select) {
      [].forEach.call(select.options, function (option) {
        option.disabled = !!option.value && selects.some(function (other) {
          return other !== select && other.value === option.value;
        });
      });
    });
  }

  function pickPair(select, letter) {
    var widget = select.closest(".widget");
    var taken = pairSelects(widget).some(function (other) {
      return other !== select && other.value === letter;
    });
    if (taken) {
      // A letter already paired with another number cannot be picked again.
      select.classList.add("refused");
      setTimeout(function () { select.classList.remove("refused"); }, 600);
      return false;
    }
    select.value = letter;
    drawPairs(widget);
    return true;
  }

  [].forEach.call(sheet.querySelectorAll(".widget-pairs"), function (widget) {
    drawPairs(widget);
    widget.addEventListener("change", function () { drawPairs(widget); });
  });

  // ------------------------------------------------------------ 1 to 10 (BG-R5.4)
  var chips = document.getElementById("paper-numbers");

  function numberOf(input) {
    var value = input.value.trim();
    if (/^\d+$/.test(value)) return parseInt(value, 10);
    var line = input.closest(".paper-line");
    // A word the server read (e.g. "седем") keeps its number until it is edited.
    return value && value === input.defaultValue && line.dataset.number
      ? parseInt(line.dataset.number, 10) : null;
  }

  function drawNumbers() {
    if (!chips) return;
    var inputs = [].slice.call(sheet.querySelectorAll(".widget-number input"));
    var owner = {};
    // The stored answers own their numbers first: the line just typed is the one refused.
    inputs.filter(function (input) { return input.value === input.defaultValue; })
      .concat(inputs.filter(function (input) { return input.value !== input.defaultValue; }))
      .forEach(function (input) {
        var n = numberOf(input);
        var question = input.closest(".paper-line").dataset.question;
        if (n && !owner[n]) owner[n] = question;
        input.setCustomValidity(n && owner[n] !== question
          ? n + ": " + chips.dataset.usedIn + " " + owner[n] : "");
      });
    [].forEach.call(chips.querySelectorAll(".chip"), function (chip) {
      chip.classList.toggle("used", !!owner[chip.dataset.number]);
    });
  }
  sheet.addEventListener("input", function (ev) {
    if (ev.target.closest(".widget-number")) drawNumbers();
  });
  drawNumbers();

  // ------------------------------------------------------------ keys
  // A picked letter has moved on already: the Enter a host types after it out of habit
  // ("letter, then Enter") confirms and does not skip the next question.
  var picked = null;
  sheet.addEventListener("keydown", function (ev) {
    var target = ev.target;
    if (ev.altKey) return;
    var afterPick = picked !== null && picked === target;
    picked = null;
    if (ev.key === "Enter") {
      if (afterPick) { ev.preventDefault(); return; }
      if (target.tagName === "BUTTON") return;
      ev.preventDefault();
      if (ev.ctrlKey || ev.metaKey) sheet.requestSubmit(); else advance(target);
      return;
    }
    if (ev.ctrlKey || ev.metaKey) return;
    var widget = target.closest(".widget");
    if (!widget) return;
    var key = ev.key.toLowerCase();
    var clear = ev.key === "Backspace" || ev.key === "Delete";
    if (target.type === "radio") {
      var value = (widget.dataset.widget === "truefalse" ? TRUTH : LETTER)[key];
      if (clear) {
        ev.preventDefault();
        [].forEach.call(widget.querySelectorAll("input[type=radio]"), function (r) {
          r.checked = false;
        });
      } else if (value) {
        ev.preventDefault();
        var radio = widget.querySelector("input[type=radio][value='" + value + "']");
        radio.checked = true;
        radio.focus();
        advance(radio);
        picked = document.activeElement;
      }
    } else if (target.tagName === "SELECT" && widget.dataset.widget === "pairs") {
      if (clear) {
        ev.preventDefault();
        target.value = "";
        drawPairs(widget);
      } else if (LETTER[key]) {
        ev.preventDefault();
        if (pickPair(target, LETTER[key])) { advance(target); picked = document.activeElement; }
      }
    }
  });

  var refused = sheet.querySelector(".paper-line.refused");
  var first = stops().filter(function (el) {
    return !refused || refused.contains(el);
  })[0];
  if (first && first.type !== "submit") first.focus();
})();
