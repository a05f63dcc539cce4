// Segnalino's service worker (rendered by companion.pwa.service_worker).
//
// It keeps the static shell (CSS, scripts, icons) and the offline page, and
// nothing else. A page is always asked of the network; when the network fails
// the phone gets the offline page in its language, never a stored copy of a
// table that would look live and be stale. Fragments, forms, the API and the
// socket never pass through here.
"use strict";

const CONFIG = {{ config|safe }};
const PREFIX = "segnalino-";
const CACHE = PREFIX + CONFIG.version;
const SHELL = new Set(CONFIG.shell);
// The language of the last page the network gave us (its Content-Language).
const LANGUAGE_KEY = "/__segnalino__/language";
let language = "";

self.addEventListener("install", (event) => {
  const urls = CONFIG.shell.concat(Object.values(CONFIG.offline));
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(urls.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // A page (a set-up form's POST included): the network, or the offline page.
    event.respondWith(page(event));
  } else if (request.method === "GET" && SHELL.has(url.pathname + url.search)) {
    event.respondWith(
      caches.open(CACHE)
        .then((cache) => cache.match(request, { ignoreVary: true }))
        .then((kept) => kept || fetch(request))
    );
  }
  // Anything else goes to the network as if this worker were not here.
});

async function page(event) {
  try {
    const response = (await event.preloadResponse) || (await fetch(event.request));
    event.waitUntil(remember(response.headers.get("Content-Language")));
    return response;
  } catch (error) {
    return offlinePage();
  }
}

async function remember(code) {
  if (!code || !(code in CONFIG.offline) || code === language) return;
  language = code;
  const cache = await caches.open(CACHE);
  await cache.put(LANGUAGE_KEY, new Response(code));
}

async function pageLanguage() {
  if (language) return language;
  const cache = await caches.open(CACHE);
  const kept = await cache.match(LANGUAGE_KEY);
  if (kept) language = await kept.text();
  if (language in CONFIG.offline) return language;
  for (const code of self.navigator.languages || []) {
    const base = code.toLowerCase().split("-")[0];
    if (base in CONFIG.offline) return base;
  }
  return CONFIG.defaultLanguage;
}

async function offlinePage() {
  const cache = await caches.open(CACHE);
  const code = await pageLanguage();
  const url = CONFIG.offline[code] || CONFIG.offline[CONFIG.defaultLanguage];
  const kept = await cache.match(url, { ignoreVary: true });
  return kept || Response.error();
}
