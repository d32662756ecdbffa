// What the phone pages' scripts share (issue 32), loaded before them: the token of a
// team or a player kept on this phone, the headers of a request, one JSON exchange with
// the API (a token no longer valid sends the phone to the join page), the copies kept in
// localStorage that make the offline queues, and the network badge. Each page's script
// keeps what is its own: when to send, what to keep and when to try again.
(function () {
  "use strict";

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
      // resolving {status, left: true}.
      request: function (method, path, opts) {
        opts = opts || {};
        var init = {method: method, headers: opts.bare ? {} : headers(opts.token)};
        if (opts.body !== undefined) init.body = JSON.stringify(opts.body);
        if (opts.cache) init.cache = opts.cache;
        return fetch(api + path, init).then(function (resp) {
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
    var net = document.getElementById("net");
    net.textContent = ok ? net.dataset.ok : net.dataset.off;
    net.classList.toggle("off", !ok);
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
                            fill: fill};
})();
