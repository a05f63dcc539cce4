// Segnalino as an installed app: registers the service worker (its address is on
// this script's tag, data-service-worker) and makes the offline page's "Try
// again" reload the page it stands in for, by itself when the network returns.
(function () {
  "use strict";
  var script = document.currentScript;
  var worker = script && script.dataset.serviceWorker;
  if (worker && "serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(worker, { scope: script.dataset.scope || "/" })
        .catch(function () { /* no worker (not HTTPS, say): the app works as before */ });
    });
  }
  document.addEventListener("submit", function (event) {
    if (!event.target.matches || !event.target.matches("[data-retry]")) return;
    event.preventDefault();
    window.location.reload();
  });
  window.addEventListener("online", function () {
    if (document.querySelector("[data-offline-page]")) window.location.reload();
  });
})();
