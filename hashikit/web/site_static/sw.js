
// hashikit site: the service worker.  It keeps every file of the site (FILES, above, written by
// `hashikit site` with the site's VERSION) in a cache of that version when it is installed, and
// answers the site's own requests from it, so the page works without a network after the first
// visit; a new version of the site replaces the old cache.  Requests to a hashikit server behind
// the page (api/...) always go to the network.
"use strict";

const CACHE = `hashikit-site-${VERSION}`;
const SCOPE = new URL("./", self.location).href;

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith("hashikit-site-") && n !== CACHE)
                                      .map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

// the page asks whether a hashikit server answers it (GET api/limits): no server is an empty answer
// (204), not an error (a static host's 404, or no network)
function askServer(request) {
  return fetch(request).then((r) => (r.ok ? r : new Response(null, { status: 204 })),
                             () => new Response(null, { status: 204 }));
}

self.addEventListener("fetch", (ev) => {
  const request = ev.request;
  if (request.method === "GET" && request.url === SCOPE + "api/limits") { ev.respondWith(askServer(request)); return; }
  if (request.method !== "GET" || !request.url.startsWith(SCOPE) || request.url.startsWith(SCOPE + "api/")) return;
  const page = request.mode === "navigate";
  ev.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(page ? SCOPE : request, { ignoreSearch: page }))
      .then((kept) => kept || fetch(request)));
});
