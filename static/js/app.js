// Segnalino: the little JS there is. Live/reconnecting indicator, wake lock,
// dismissable messages, and a resync when a sleeping phone wakes up.
(function () {
  "use strict";
  function indicator(state) {
    var el = document.getElementById("connection");
    if (!el) return;
    el.dataset.state = state;
    el.textContent = state === "live" ? el.dataset.liveText : el.dataset.offlineText;
  }
  document.addEventListener("htmx:wsOpen", function () { indicator("live"); });
  document.addEventListener("htmx:wsClose", function () { indicator("offline"); });
  document.addEventListener("htmx:wsError", function () { indicator("offline"); });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-dismiss]");
    if (button) button.closest(".error").remove();
  });

  var lock = null;
  function keepAwake() {
    if (!("wakeLock" in navigator) || !document.getElementById("live")) return;
    navigator.wakeLock.request("screen").then(function (l) { lock = l; }, function () {});
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") keepAwake();
  });
  document.addEventListener("DOMContentLoaded", keepAwake);
})();
