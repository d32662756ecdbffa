// The phone sheet's offline shell (issue 6): reloaded or restarted without
// network, the phone shows the sheet from this cache, and sheet.js fills it
// from its last copy and the edits still queued in localStorage. Browsers run
// service workers only in secure contexts (HTTPS, localhost): over plain http
// on a venue's LAN the queue survives all the same, but a reload needs the network.
"use strict";
var CACHE = "answerdesk-sheet-v1";
var SHEET_PAGE = /^\/e\/[^/]+\/sheet$/;

self.addEventListener("install", function (event) {
  // Answers and polls go straight to the network, never through this worker
  // (Chromium's static routing; elsewhere the fetch handler lets them pass).
  if (event.addRoutes && typeof URLPattern !== "undefined") {
    event.waitUntil(event.addRoutes({
      condition: {urlPattern: new URLPattern({pathname: "/api/*"})}, source: "network"
    }).catch(function () {}));
  }
  self.skipWaiting();
});
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

// The sheet page names itself and its scripts and styles: loaded before this
// worker ran, they were not seen by the fetch handler below.
self.addEventListener("message", function (event) {
  var urls = event.data && event.data.cache;
  if (Array.isArray(urls)) {
    event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(urls); }));
  }
});

// Network first, so an online phone always gets the current page; the cache
// only answers when the network does not.
self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (!SHEET_PAGE.test(url.pathname) && url.pathname.indexOf("/static/") !== 0) return;
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(request, {ignoreSearch: true}).then(function (hit) {
      return hit || Response.error();
    });
  }));
});
