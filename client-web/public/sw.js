// The offline shell: the page itself (index.html, its hashed scripts and styles,
// the icons) is kept so the page opens without the network and says it is
// offline; everything else (the game's WebSocket, /healthz) goes to the network.
// Hashed files never change: from the cache first. The page: from the network
// first, so a new version shows as soon as it is there.
const CACHE = "arena-shell-v1";
const SHELL = ["/", "/manifest.webmanifest", "/icon-192.png", "/icon-512.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  // Shells of older versions go.
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** Keeps a good response in the shell's cache. */
function keep(request, response) {
  if (response.ok) {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/assets/")) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request).then((r) => keep(request, r))));
    return;
  }
  const shell = request.mode === "navigate" || SHELL.includes(url.pathname);
  if (!shell) return;
  event.respondWith(
    fetch(request)
      .then((r) => keep(request.mode === "navigate" ? "/" : request, r))
      .catch(() => caches.match(request.mode === "navigate" ? "/" : request).then((hit) => hit || Response.error())),
  );
});
