// The host's desk: keyboard-first review queue, live all-answers view, fast paper entry.
// Pages stay live by polling a version number the server reads from the database.
(function () {
  "use strict";

  function post(url, data, csrf) {
    var body = new FormData();
    Object.keys(data).forEach(function (k) {
      [].concat(data[k]).forEach(function (v) { body.append(k, v); });
    });
    return fetch(url, {method: "POST", body: body, credentials: "same-origin",
                       headers: {"Accept": "application/json", "X-CSRFToken": csrf}});
  }

  function typing(target) {
    var tag = target.tagName;
    return (tag === "INPUT" && target.type !== "checkbox") || tag === "TEXTAREA" || tag === "SELECT";
  }

  // Poll /live; when the version moved, call refresh() (never two at once).
  function follow(root, currentVersion, refresh) {
    var busy = false;
    function tick() {
      if (busy || document.hidden) return setTimeout(tick, 2000);
      fetch(root.dataset.liveUrl, {cache: "no-store", headers: {"Accept": "application/json"}})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (data && data.version !== currentVersion()) { busy = true; return refresh(); }
        })
        .catch(function () {})
        .then(function () { busy = false; setTimeout(tick, 2000); });
    }
    setTimeout(tick, 2000);
    return function (fn) { busy = true; return fn().then(function () { busy = false; }); };
  }

  // ------------------------------------------------------------ review queue
  var review = document.getElementById("review");
  if (review) {
    var list = document.getElementById("review-list");
    var status = document.getElementById("desk-status");
    var selected = 0;
    var selectedKey = null;
    var left = {};  // item key -> verdict groups the host left out (split)

    var items = function () { return list.querySelectorAll("article.review-item"); };
    var version = function () {
      var box = document.getElementById("review-items");
      return box ? box.dataset.version : "";
    };

    var counts = function () {
      var box = document.getElementById("review-items");
      document.getElementById("queue-count").textContent = box.dataset.items;
      document.getElementById("queue-answers").textContent = box.dataset.answers;
      document.title = "(" + box.dataset.items + ") " + document.title.replace(/^\(\d+\) /, "");
    };

    var select = function (index) {
      var all = items();
      if (!all.length) { selected = 0; selectedKey = null; return; }
      selected = Math.max(0, Math.min(index, all.length - 1));
      all.forEach(function (el, i) {
        if (i === selected) el.setAttribute("aria-current", "true");
        else el.removeAttribute("aria-current");
      });
      selectedKey = all[selected].dataset.key;
      all[selected].scrollIntoView({block: "nearest"});
    };

    var redraw = function () {
      return fetch(review.dataset.itemsUrl, {cache: "no-store"})
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html === null) return;
          list.innerHTML = html;  // server-rendered, autoescaped fragment
          var all = items();
          var index = selected;
          all.forEach(function (el, i) {
            if (el.dataset.key === selectedKey) index = i;
            var out = left[el.dataset.key] || [];
            el.querySelectorAll("input[name=verdicts]").forEach(function (box) {
              if (out.indexOf(box.value) >= 0) box.checked = false;
            });
          });
          counts();
          select(index);
        });
    };
    var guard = follow(review, version, redraw);

    var decide = function (decision) {
      var item = items()[selected];
      if (!item) return;
      if (decision === "partial" && item.dataset.partial !== "1") {
        status.textContent = review.dataset.noPartial || "No partial credit in this round";
        return;
      }
      var chosen = [], out = [];
      item.querySelectorAll("input[name=verdicts]").forEach(function (box) {
        (box.checked ? chosen : out).push(box.value);
      });
      if (!chosen.length) return;
      var key = item.dataset.key;
      item.classList.add("sending");
      guard(function () {
        return post(review.dataset.decideUrl, {verdicts: chosen, decision: decision},
                    review.dataset.csrf)
          .then(function (r) { return r.json().then(function (data) { return [r, data]; }); })
          .then(function (res) {
            var data = res[1];
            if (!res[0].ok) { status.textContent = data.message || "error"; return; }
            status.textContent = data.conflicts.length ? data.conflicts.join(" · ") : "";
            delete left[key];
            if (out.length) { left[key] = out; selectedKey = key; } else { selectedKey = null; }
            return redraw();
          })
          .catch(function () { status.textContent = "…"; item.classList.remove("sending"); });
      });
    };

    var keys = {KeyC: "correct", KeyP: "partial", KeyW: "wrong", KeyA: "add"};
    document.addEventListener("keydown", function (ev) {
      if (ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target)) return;
      var item = items()[selected];
      if (keys[ev.code]) { ev.preventDefault(); decide(keys[ev.code]); return; }
      if (ev.code === "KeyJ" || ev.key === "ArrowDown") { ev.preventDefault(); select(selected + 1); return; }
      if (ev.code === "KeyK" || ev.key === "ArrowUp") { ev.preventDefault(); select(selected - 1); return; }
      var digit = /^Digit([1-9])$/.exec(ev.code);
      if (digit && item) {
        var box = item.querySelectorAll("input[name=verdicts]")[Number(digit[1]) - 1];
        if (box) { ev.preventDefault(); box.checked = !box.checked; }
      }
    });
    list.addEventListener("submit", function (ev) {
      var button = ev.submitter;
      var item = ev.target.closest("article.review-item");
      if (!button || !item) return;
      ev.preventDefault();
      select([].indexOf.call(items(), item));
      decide(button.value);
    });
    list.addEventListener("click", function (ev) {
      var item = ev.target.closest("article.review-item");
      if (item && ev.target.tagName !== "BUTTON") select([].indexOf.call(items(), item));
    });
    select(0);
  }

  // ------------------------------------------------------------ all answers
  var answers = document.getElementById("answers");
  if (answers) {
    var rows = document.getElementById("answer-rows");
    var rowsVersion = function () {
      var t = document.getElementById("answer-table");
      return t ? t.dataset.version : "";
    };
    var reload = function () {
      return fetch(answers.dataset.rowsUrl, {cache: "no-store"})
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) { if (html !== null) rows.innerHTML = html; });
    };
    var hold = follow(answers, rowsVersion, reload);
    rows.addEventListener("submit", function (ev) {
      if (!ev.submitter) return;
      ev.preventDefault();
      var form = ev.target;
      hold(function () {
        return post(form.action, {verdict: form.elements.verdict.value,
                                  decision: ev.submitter.value}, answers.dataset.csrf)
          .then(reload);
      });
    });
  }

  // ------------------------------------------------------------ screen control
  var projector = document.getElementById("projector");
  if (projector) {
    document.addEventListener("keydown", function (ev) {
      if (typing(ev.target) || (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight")) return;
      var button = projector.querySelector("button[data-key=" + ev.key + "]");
      if (button) { ev.preventDefault(); button.click(); }
    });
  }
})();
