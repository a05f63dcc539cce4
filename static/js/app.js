// Segnalino: the little JS there is. Live/reconnecting indicator, wake lock,
// dismissable messages, and a resync when a sleeping phone wakes up.
(function () {
  "use strict";
  function indicator(state) {
    var el = document.getElementById("connection");
    if (!el) return;
    el.hidden = false;
    el.dataset.state = state;
    el.textContent = state === "live" ? el.dataset.liveText : el.dataset.offlineText;
  }
  document.addEventListener("htmx:wsOpen", function () { indicator("live"); window.segnalinoLive = true; });
  document.addEventListener("htmx:wsClose", function () { indicator("offline"); window.segnalinoLive = false; });
  document.addEventListener("htmx:wsError", function () { indicator("offline"); window.segnalinoLive = false; });
  // With the socket live, the update comes back on it: the POST reply is just an ack.
  document.addEventListener("htmx:configRequest", function (event) {
    if (window.segnalinoLive) event.detail.headers["X-Segnalino-Live"] = "1";
  });

  // A new tap dismisses the last error at once. (The reply would clear it too, but
  // a live update may replace the tapped form first, and htmx drops the reply of
  // a form that is no longer on the page.)
  // Only a tap that changes something (a POST): a form refreshing itself is not one.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    if (!config || config.verb !== "post") return;
    var messages = document.getElementById("messages");
    if (messages) messages.replaceChildren();
  });

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

// Turn timers: count down on the phone; at zero ask the server to enforce the
// deadline (it also does so itself; this only makes it immediate).
(function () {
  "use strict";
  var socket = null;
  var timer = null;
  document.addEventListener("htmx:wsOpen", function (event) { socket = event.detail.socketWrapper; });
  document.addEventListener("htmx:wsClose", function () { socket = null; });
  function tick() {
    var el = document.querySelector("[data-deadline]");
    if (!el) { clearInterval(timer); timer = null; return; }
    var left = Math.ceil((Date.parse(el.dataset.deadline) - Date.now()) / 1000);
    var out = el.querySelector(".countdown");
    if (out) out.textContent = String(Math.max(0, left));
    if (left <= 0 && !el.dataset.asked && socket) {
      el.dataset.asked = "1";
      socket.send(JSON.stringify({ type: "sync" }));
    }
  }
  function start() { if (!timer && document.querySelector("[data-deadline]")) timer = setInterval(tick, 500); }
  document.addEventListener("htmx:wsAfterMessage", start);
  document.addEventListener("DOMContentLoaded", start);
})();

// Our 4xx replies carry HX-Retarget (a message for #messages): keep them away from
// django-htmx's debug handler, which would replace the whole page in DEBUG mode.
document.addEventListener("DOMContentLoaded", function () {
  document.body.addEventListener("htmx:beforeOnLoad", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.getResponseHeader("HX-Retarget")) event.stopPropagation();
  });
});

// Keyed fragments: a form the player is filling in (a secret bid, say) carries
// data-swap-key; a live update with the same key leaves it alone.
document.addEventListener("htmx:oobBeforeSwap", function (event) {
  var target = event.detail.target;
  var fragment = event.detail.fragment;
  var incoming = fragment && (fragment.firstElementChild || fragment);
  if (target && target.dataset && target.dataset.swapKey && incoming && incoming.dataset &&
      incoming.dataset.swapKey === target.dataset.swapKey) {
    event.detail.shouldSwap = false;
  }
});

// One-time keys: live fragments are shared between phones, so they carry an
// empty key; each htmx submission gets its own here (a retried request keeps it).
document.addEventListener("htmx:configRequest", function (event) {
  var params = event.detail.parameters;
  if (params && params.key === "") {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    params.key = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
});

// A live update must not fold a panel the player has open (cubes, weapons).
(function () {
  "use strict";
  var open = [];
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || !target.querySelectorAll) return;
    target.querySelectorAll("details[id][open]").forEach(function (d) { open.push(d.id); });
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    open.forEach(function (id) {
      var d = document.getElementById(id);
      if (d) d.open = true;
    });
    open = [];
  });
})();
