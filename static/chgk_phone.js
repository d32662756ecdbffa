// The ЧГК auction on a team's phone (CHGK-4): credits, and a sealed bid handed in
// from 1 to the team's credits. Polls its small status; never redraws under typing.
(function () {
  "use strict";
  var P = window.AnswerdeskPhone;
  var root = document.getElementById("sheet");
  var s = document.getElementById("chgk-strings").dataset;
  var phone = P.of(root.dataset.code);
  var el = P.el;
  var seen = "";
  var box = document.createElement("section");
  box.id = "chgk-auction";
  box.className = "chgk-auction";
  root.parentNode.insertBefore(box, root);

  function render(st, message) {
    box.textContent = "";
    if (st.credits !== null && st.credits !== undefined) {
      var c = el("p", "credits", s.credits + ": ");
      var strong = el("strong", null, String(st.credits));
      strong.id = "chgk-credits";
      c.appendChild(strong);
      box.appendChild(c);
    }
    if (!st.open) {
      var why = {seated: s.seated, taken: s.taken, contender: s.contender,
                 no_credits: s.noCredits, ended: s.ended}[st.reason];
      if (why) box.appendChild(el("p", "muted", why));
      return;
    }
    box.appendChild(el("p", "qtext", s.open.replace("{n}", st.credits)));
    var form = el("form", "bid");
    var input = el("input", "answer");
    input.type = "number";
    input.inputMode = "numeric";
    input.min = 1;
    input.max = st.credits;
    input.name = "bid";
    input.id = "chgk-bid";
    input.setAttribute("aria-label", s.bid);
    input.placeholder = s.bid;
    var send = el("button", "primary", s.send);
    send.type = "submit";
    form.appendChild(input);
    form.appendChild(send);
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var bid = parseInt(input.value, 10);
      phone.request("PUT", "/chgk/bid", {token: phone.token(),
                                         body: {bid: isNaN(bid) ? input.value : bid}})
        .then(function (r) {
          if (r.ok) { seen = JSON.stringify(r.body); render(r.body); }
          else render(st, r.body.message || s.refused);
        }).catch(function () { render(st, s.refused); });
    });
    box.appendChild(form);
    if (st.bid) {
      var handed = el("p", "ok", s.handed.replace("{n}", st.bid));
      handed.id = "chgk-bid-handed";
      box.appendChild(handed);
    }
    if (message) {
      var err = el("p", "error", message);
      err.id = "chgk-bid-error";
      err.setAttribute("role", "alert");
      box.appendChild(err);
    }
  }

  function poll() {
    var token = phone.token();
    if (!token) return;
    phone.request("GET", "/chgk/auction", {token: token}).then(function (r) {
      var st = r.ok ? r.body : null;
      if (!st) return;
      var sig = JSON.stringify(st);
      var input = document.getElementById("chgk-bid");
      var typing = input && (document.activeElement === input || input.value !== "");
      if (sig !== seen && !(typing && st.open)) { seen = sig; render(st); }
    }).catch(function () { /* offline: the sheet shows it */ });
  }

  poll();
  setInterval(poll, 3000);
})();
