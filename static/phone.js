// What the phone pages' scripts share (issue 32), loaded before them: the token of a
// team or a player kept on this phone, the headers of a request, one JSON exchange with
// the API (a token no longer valid sends the phone to the join page), the copies kept in
// localStorage that make the offline queues, and the network badge. Each page's script
// keeps what is its own: when to send, what to keep and when to try again; except a
// server that says when to come back (Retry-After), which every script obeys here.
(function () {
  "use strict";

  // The translated "busy" notice rides on this script's own tag (templates/_phone_js.html).
  var script = document.currentScript;
  var busyText = (script && script.dataset.busy) || "";

  // A 503 or 429 with Retry-After (seconds, or an HTTP date): the phone sends nothing
  // before that time, plus a jitter so a room of phones refused together does not come
  // back in the same millisecond: 250 ms and a quarter of the wait, at most 5 s. A wait
  // is at least MIN_WAIT_MS (a "0" would make a busy server's phones spin) and is read
  // up to MAX_WAIT_MS (a front misconfigured to ask for hours would stop a phone for
  // the night); this server asks 1 s when busy, the rest of a limit's minute when
  // limited. docs/security.md, "Phones and Retry-After".
  var MIN_WAIT_MS = 1000;
  var MAX_WAIT_MS = 600000;
  var RETRY_STATUSES = [503, 429];
  var quietUntil = 0;
  var held = 0;  // requests refused with Retry-After, waiting to go again

  function retryAfterMs(header, now) {
    if (header === null || header === undefined || header === "") return null;
    var ms;
    if (/^\s*\d+\s*$/.test(header)) {
      ms = parseInt(header, 10) * 1000;
    } else {
      var at = Date.parse(header);
      if (isNaN(at)) return null;
      ms = at - now;
    }
    return Math.min(Math.max(ms, MIN_WAIT_MS), MAX_WAIT_MS);
  }

  function jitterMs(waitMs, random) {
    return Math.floor(random * Math.min(250 + waitMs / 4, 5000));
  }

  function sleep(ms) { return new Promise(function (done) { setTimeout(done, ms); }); }

  // Every request waits here while the server has asked for quiet, each with its own
  // jitter, so the requests held back do not return together either.
  function quiet() {
    var left = quietUntil - Date.now();
    if (left <= 0) return Promise.resolve();
    return sleep(left + jitterMs(0, Math.random())).then(quiet);
  }

  // The busy notice: the page's network badge when it has one (#net), or a line of
  // its own at the top of the page. It tells the player nothing was lost, not an error.
  function showBusy(busy) {
    var net = document.getElementById("net");
    if (!net) {
      if (!busy) return;
      net = document.createElement("p");
      net.id = "net";
      net.className = "net";
      net.setAttribute("role", "status");
      net.dataset.ok = "";
      document.body.insertBefore(net, document.body.firstChild);
    }
    if (busy) {
      net.textContent = busyText;
      net.classList.remove("off");
      net.classList.add("busy");
      net.hidden = false;
    } else if (net.classList.contains("busy")) {
      net.classList.remove("busy");
      net.textContent = net.dataset.ok || "";
      net.hidden = !net.dataset.ok;
    }
  }

  // JSON in, and the token when the phone holds one.
  function headers(token) {
    var h = {"Content-Type": "application/json"};
    if (token) h.Authorization = "Bearer " + token;
    return h;
  }

  // One event's part of this phone: its API and its keys in localStorage.
  function of(code, joinUrl) {
    var api = "/api/events/" + encodeURIComponent(code);
    function key(name) { return "answerdesk:" + name + ":" + code; }
    var tokenKey = key("token");
    // A refused request sent again after the wait; the busy notice stays while any is
    // held back, whatever else the page reads meanwhile.
    function again(method, path, opts) {
      held += 1;
      showBusy(true);
      function done() { held -= 1; if (!held) showBusy(false); }
      return phone.request(method, path, opts).then(function (r) { done(); return r; },
                                                   function (e) { done(); throw e; });
    }
    var phone = {
      code: code,
      api: api,
      key: key,
      token: function () { return localStorage.getItem(tokenKey); },
      keep: function (token) { localStorage.setItem(tokenKey, token); },
      forget: function () { localStorage.removeItem(tokenKey); },
      // A link with a token (a share link, a QR code): a phone already playing takes
      // it only when its user says so; a stranger's link cannot silently take the phone
      // over (issue 31). True when the phone took it.
      adopt: function (linked, question) {
        var current = phone.token();
        if (linked === current || (current && !window.confirm(question))) return false;
        phone.keep(linked);
        return true;
      },
      // The token is no longer valid: forgotten, and the phone goes to the join page.
      leave: function () {
        phone.forget();
        location.replace(joinUrl);
      },
      // One exchange with path under the event's API: opts.body goes as JSON, the
      // answer comes back as {status, ok, body} with its JSON read. The promise fails
      // when the network does (or the answer is not JSON: a proxy's error page), which
      // every caller takes for "offline". opts.token: the bearer; opts.bare: no headers
      // at all (the public reads); opts.cache: fetch's; opts.leave: the statuses that
      // mean the token is no longer valid: then the phone leaves (above), unread,
      // resolving {status, left: true}. A 503 or 429 with Retry-After is sent again
      // after the wait (quiet), except with opts.once: then it is the answer.
      request: function (method, path, opts) {
        opts = opts || {};
        var init = {method: method, headers: opts.bare ? {} : headers(opts.token)};
        if (opts.body !== undefined) init.body = JSON.stringify(opts.body);
        if (opts.cache) init.cache = opts.cache;
        // opts.once goes at once: held back it would be worth nothing anyway.
        var ready = opts.once ? Promise.resolve() : quiet();
        return ready.then(function () { return fetch(api + path, init); }).then(function (resp) {
          var wait = RETRY_STATUSES.indexOf(resp.status) >= 0
            ? retryAfterMs(resp.headers.get("Retry-After"), Date.now()) : null;
          if (wait !== null) {
            // Nothing was done: the same request goes again once the wait is over
            // (an answer keeps its seq, so a replay cannot undo a newer edit), unless
            // it is worth nothing late (opts.once: a buzzer press, a clock sample).
            quietUntil = Math.max(quietUntil, Date.now() + wait + jitterMs(wait, Math.random()));
            if (!opts.once) return again(method, path, opts);
          }
          if (opts.leave && opts.leave.indexOf(resp.status) >= 0) {
            phone.leave();
            return {status: resp.status, ok: false, body: null, left: true};
          }
          return resp.json().then(function (body) {
            return {status: resp.status, ok: resp.ok, body: body};
          });
        });
      }
    };
    return phone;
  }

  // A copy kept in localStorage (a queue, the last sheet), or fallback when there is
  // none or it cannot be read.
  function load(key, fallback) {
    var raw = localStorage.getItem(key);
    if (raw === null) return fallback;
    try { return JSON.parse(raw); } catch (e) { return fallback; }
  }
  function store(key, value) { localStorage.setItem(key, JSON.stringify(value)); }

  // The page's network badge (#net with data-ok and data-off).
  function online(ok) {
    if (ok && held) { showBusy(true); return; }  // online, but told to wait: say so
    var net = document.getElementById("net");
    net.textContent = ok ? net.dataset.ok : net.dataset.off;
    net.classList.toggle("off", !ok);
    net.classList.remove("busy");
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  // A translated text's {name} places filled in (the pages pass %(name)s as {name}).
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, k) { return values[k]; });
  }

  window.AnswerdeskPhone = {of: of, load: load, store: store, online: online, el: el,
                            fill: fill, retryAfterMs: retryAfterMs, jitterMs: jitterMs};
})();
