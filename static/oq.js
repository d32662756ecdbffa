// OpenQuiz question types on the buzzer phone (OQ-3): choose an option (choices: the
// buzzer's winner; choices for all: every team once), bid or pass in the auction, hand
// the secret question (the team with the turn) for the price its captain picks among
// the pack's (OQ-3.4: a fixed price is only shown). The state comes from buzzer.js
// ("buzzer:state"); after an action the page asks it to look again ("buzzer:look").
// The server decides and refuses; its translated message is shown as it comes. Only
// the team's captain sees the controls that are the captain's (OQ-1).
(function () {
  "use strict";
  var root = document.getElementById("oq");
  if (!root) return;
  var P = window.AnswerdeskPhone;
  var t = root.dataset;
  var phone = P.of(t.code);
  var token = phone.token();  // linked.js took a link's
  var result = document.getElementById("result");
  var labels = {};
  var me = null;
  var player = null;
  var state = null;
  var play = null;
  var mineHere = {};
  var NO_BUZZER = {choices_all: true, secret: true, auction: true};
  root.querySelectorAll("[data-oq-label]").forEach(function (el) {
    labels[el.dataset.oqLabel] = el.textContent;
  });

  function el(id) { return document.getElementById(id); }
  var fill = P.fill;
  function key() { return play.round + "/" + play.question; }
  function where(extra) {
    var body = {round: play.round, question: play.question};
    Object.keys(extra || {}).forEach(function (k) { body[k] = extra[k]; });
    return body;
  }
  function send(path, body) {
    phone.request("POST", "/oq/" + path, {token: token, body: body})
      .then(function (r) {
        result.textContent = r.status < 300 ? t.tDone : r.body.message;
        document.dispatchEvent(new Event("buzzer:look"));
      }).catch(function () { result.textContent = ""; });
  }
  function button(text, action, disabled) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.disabled = disabled;
    b.addEventListener("click", action);
    return b;
  }
  // OQ-1: the captain picks, chooses, bids and hands the secret question for the team.
  function captain() {
    var mine = (state.oq.teams || []).filter(function (x) { return x.team === me; })[0];
    return !!(mine && player !== null && mine.captain === player);
  }
  function winner() {
    var b = state.buzzer;
    if (!b || b.state !== "closed" || !b.order.length) return null;
    return b.round === play.round && b.question === play.question ? b.order[0].team : null;
  }

  function render(s) {
    state = s;
    play = s.oq ? s.oq.play : null;
    root.hidden = !play;
    var press = el("press");  // after this script in the page: looked up when drawn
    if (press) press.hidden = !!(play && NO_BUZZER[play.type]);
    if (!play) return;
    var open = play.state === "open";
    var mine = (play.choices || []).filter(function (c) { return c.team === me; })[0];
    var lead = captain();
    var can = !!play.options && open && !mine && lead
      && (play.type === "choices_all" || winner() === me);
    // choices: the winner's options take the button's place (the window is closed)
    if (press && can) press.hidden = true;
    el("oq-what").textContent = fill(t.tWhat, {type: labels[play.type], value: play.value});
    // OQ-2: the correct answer once the question is over (OQ-4.1: also when nobody pressed)
    el("oq-answer").textContent = play.answer ? fill(t.tAnswer, {answer: play.answer}) : "";
    var options = el("oq-options");
    options.textContent = "";
    if (play.options) {
      Object.keys(play.options).forEach(function (label) {
        options.appendChild(button(label + " · " + play.options[label], function () {
          mineHere[key()] = label;
          send("choose", where({option: label}));
        }, !can));
      });
    }
    var chosen = mine && (mine.option || mineHere[key()]);
    el("oq-answering").textContent = chosen ? fill(t.tChosen, {option: chosen})
      : play.answering ? fill(t.tAnswering, {team: play.answering}) : "";
    var bidding = play.type === "auction" && play.state !== "done" && !play.answering && lead;
    el("oq-auction").hidden = !bidding;
    if (bidding) {
      var a = play.auction;
      el("oq-highest").textContent = a.highest === null ? fill(t.tNoStake, {value: play.value})
        : fill(t.tHighest, {stake: a.highest, team: a.leader});
    }
    var handing = play.type === "secret" && play.state !== "done" && !play.answering
      && lead && me === s.oq.turn;
    el("oq-secret").hidden = !handing;
    var teams = el("oq-teams");
    teams.textContent = "";
    if (handing) {
      prices(play.prices || []);
      s.oq.scores.forEach(function (row) {
        teams.appendChild(button(fill(t.tGive, {team: row.team}), function () {
          var body = {team: row.team};
          if ((play.prices || []).length) body.price = parseInt(el("oq-price").value, 10);
          send("secret", where(body));
        }, false));
      });
    }
  }

  // OQ-3.4: the secret question's own prices: a choice (the lowest first, as SIGame
  // offers) or a fixed price shown alone. Rebuilt only when they change, so a pick
  // stays while the state comes and goes.
  function prices(list) {
    var select = el("oq-price");
    el("oq-price-choice").hidden = list.length < 2;
    el("oq-price-fixed").hidden = list.length !== 1;
    el("oq-price-fixed").textContent = list.length === 1 ? fill(t.tPrice, {price: list[0]}) : "";
    if (select.dataset.shown === list.join(",")) return;
    select.dataset.shown = list.join(",");
    select.textContent = "";
    list.forEach(function (price) {
      var option = document.createElement("option");
      option.value = option.textContent = String(price);
      select.appendChild(option);
    });
  }

  el("oq-auction").addEventListener("submit", function (ev) {
    ev.preventDefault();
    send("stake", where({amount: parseInt(el("oq-stake").value, 10)}));
  });
  el("oq-pass").addEventListener("click", function () { send("pass", where()); });
  document.addEventListener("buzzer:state", function (ev) { render(ev.detail); });
  // oq_me.js says whose phone this is (OQ-1): the player and their team.
  function whoami(found) {
    me = found.team;
    player = found.player;
    if (state) render(state);
  }
  document.addEventListener("oq:me", function (ev) { whoami(ev.detail); });
  if (window.oqMe) whoami(window.oqMe);
})();
