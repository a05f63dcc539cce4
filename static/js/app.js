// Segnalino: the little JS there is. Live/reconnecting indicator, wake lock,
// dismissable messages, and a resync when a sleeping phone wakes up.
// The live table: its socket's heartbeat, the "Live" badge, and the taps.
//
// Every tap (a POST inside the table) goes through one queue kept in
// localStorage: sent in order, one at a time, each with its one-time key made
// once, so a retry (no network, a server error) can never apply it twice. A tap
// that cannot be sent stays queued, is counted on the badge, and survives a
// reload; a tap the server refuses is dropped from the queue and its reason shown.
// A game action or an undo travels on the live socket when it is open (no HTTP
// request per tap) and is answered there by its key; otherwise it is POSTed. The
// same tap, retried either way, keeps its key.
(function () {
  "use strict";
  var live = null, badge = null, storeKey = "";
  var queue = [], sending = false, retryTimer = null, retryDelay = 1000;
  var wrapper = null, heardAt = 0, online = false, inFlight = null, latest = null;
  var PING_MS = 5000, SILENT_MS = 2000, ANSWER_MS = 10000, leaving = false;
  var SOCKET_TAP = /\/(act|undo)$/;

  // Reconnect soon after a drop, but never faster than the server can bear.
  // Every (re)connect says which revision the page shows (?shown=n): a table
  // still at it sends nothing (the page has it all), any newer one everything.
  if (window.htmx) {
    htmx.config.wsReconnectDelay = function (retry) {
      return Math.min(500 * Math.pow(2, retry), 4000) * (0.5 + Math.random() / 2);
    };
    htmx.createWebSocket = function (url) {
      if (document.getElementById("status")) {
        url += (url.indexOf("?") < 0 ? "?" : "&") + "shown=" + shownRevision();
      }
      var socket = new WebSocket(url, []);
      socket.binaryType = htmx.config.wsBinaryType;
      latest = socket;
      return socket;
    };
  }

  function showBadge() {
    if (!badge) return;
    badge.hidden = false;
    badge.dataset.state = online ? "live" : "offline";
    var text = online ? badge.dataset.liveText : badge.dataset.offlineText;
    if (queue.length) {
      badge.dataset.pending = String(queue.length);
      text += " · " + (queue.length === 1 ? badge.dataset.waitingOne
        : badge.dataset.waitingMany.replace("{n}", String(queue.length)));
    } else {
      delete badge.dataset.pending;
    }
    badge.textContent = text;
  }
  function setOnline(value) {
    online = value;
    window.segnalinoLive = value;
    showBadge();
  }

  function save() {
    try { localStorage.setItem(storeKey, JSON.stringify(queue)); } catch (e) { /* private mode */ }
  }
  function load() {
    try { return JSON.parse(localStorage.getItem(storeKey) || "[]") || []; } catch (e) { return []; }
  }
  function freshKey() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }
  function shownRevision() {
    var status = document.getElementById("status");
    return status ? parseInt(status.dataset.revision || "0", 10) : 0;
  }

  function retryLater() {
    if (retryTimer) return;
    retryTimer = setTimeout(function () { retryTimer = null; pump(); }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 5000);
  }

  function keyOf(tap) {
    return new URLSearchParams(tap.body).get("key") || "";
  }
  function clearMessages() {
    var messages = document.getElementById("messages");
    if (messages) messages.replaceChildren();
  }

  // The socket's answer to the tap in flight: done, refused (with its reason) or
  // failed (not known to be applied: sent again, with the same key).
  function answered(message) {
    if (!inFlight || message.key !== inFlight.key) return;  // an old tap's answer
    clearTimeout(inFlight.timer);
    inFlight = null;
    sending = false;
    if (message.type === "failed") { retryLater(); return; }
    queue.shift();
    save();
    retryDelay = 1000;
    if (message.type === "refused") htmx.swap("#messages", message.html, { swapStyle: "outerHTML" });
    else clearMessages();
    pump();
  }
  // No answer (the socket closed, died quietly, or dropped the message): send
  // it again, at once as a POST if the socket closed, else after a pause.
  function unanswered(closed) {
    if (!inFlight) return;
    clearTimeout(inFlight.timer);
    inFlight = null;
    sending = false;
    if (closed) pump(); else retryLater();
  }

  function pump() {
    showBadge();
    if (sending || !queue.length) return;
    sending = true;
    var tap = queue[0];
    if (online && wrapper && SOCKET_TAP.test(tap.path)) {
      try {
        wrapper.sendImmediately(JSON.stringify({ type: "tap", path: tap.path, body: tap.body }));
        inFlight = { key: keyOf(tap), timer: setTimeout(function () { unanswered(false); }, ANSWER_MS) };
        return;
      } catch (e) { /* not open after all: POST it */ }
    }
    var headers = {
      "Content-Type": "application/x-www-form-urlencoded",
      "HX-Request": "true",
      "X-CSRFToken": csrfToken()
    };
    if (online) headers["X-Segnalino-Live"] = "1";
    fetch(tap.path, { method: "POST", body: tap.body, headers: headers, credentials: "same-origin" })
      .then(function (response) {
        return response.text().then(function (text) {
          if (response.status >= 500 || response.status === 0) throw new Error("not received");
          queue.shift();
          save();
          retryDelay = 1000;
          if (response.status >= 400) {
            htmx.swap("#messages", text, { swapStyle: "outerHTML" });
          } else if (response.headers.get("HX-Refresh") === "true") {
            location.reload();  // seated or left: the page orders the boards for the seat
          } else {
            htmx.swap(document.body, text, { swapStyle: "none" });
          }
        });
      })
      .then(function () { sending = false; pump(); },
            function () { sending = false; showBadge(); retryLater(); });
  }

  // A double tap: the same tap again (the same fields to the same address) within
  // a moment of the first, with no other press or choice between them, is the
  // finger, not the player: dropped, not recorded twice (a hit, a turn ended, a
  // bid locked in). It is one if the browser counts the press as the second of a
  // double click or tap (its click's detail), or if the page has shown nothing new
  // since the first (the phone was slow to answer it). Once the page shows what the
  // first did, a new single press of the same button is meant, and sent; so is one
  // after a pause (offline, the page shows nothing new, and a player may mean the
  // same hit twice). A stepper (data-repeat: +1 +1 is two steps) counts every tap.
  var DOUBLE_TAP_MS = 1500, lastTap = null, clicks = 0, clickedAt = 0;
  function doubleTap(path, body, elt, shown) {
    if (elt.closest("[data-repeat]")) return false;
    var fields = new URLSearchParams(body);
    fields.delete("key");
    var said = path + "?" + fields.toString(), now = Date.now();
    var second = clicks >= 2 && now - clickedAt < 200;
    if (lastTap && lastTap.said === said && now - lastTap.at < DOUBLE_TAP_MS &&
        (second || lastTap.shown === shown)) return true;
    lastTap = { said: said, shown: shown, at: now };
    return false;
  }
  document.addEventListener("click", function (event) {
    clicks = event.detail || 0;
    clickedAt = Date.now();
  }, true);
  // Any press but a form's button (a number chosen, a panel opened) ends it.
  document.addEventListener("pointerdown", function (event) {
    var on = event.target.closest && event.target.closest("button, input[type=submit]");
    if (!on || !on.form) lastTap = null;
  }, true);
  document.addEventListener("change", function () { lastTap = null; }, true);

  // Take over htmx's POSTs inside the table: into the queue, then sent by pump().
  // (The "record it again" button of a refusal, in #messages, is a tap too.) An
  // action says the version this phone showed when it was tapped ("seen"): the
  // server asks first if another phone has just recorded the same move.
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (!live || detail.verb !== "post") return;
    if (!live.contains(detail.elt) && !detail.elt.closest("#messages")) return;
    if (detail.elt.closest("[data-direct]")) return;  // not a tap: e.g. "play again"
    event.preventDefault();
    // Each tap gets a key of its own, made here: the page's forms carry keys made
    // for it (so they work without JavaScript), which two taps on the same form
    // before any update would share (and the second would count as a repeat).
    var body = new URLSearchParams();
    detail.formData.forEach(function (value, name) {
      if (name === "csrfmiddlewaretoken") return;  // the header carries the page's token
      body.append(name, name === "key" ? freshKey() : value);
    });
    var status = document.getElementById("status");
    var shown = status ? status.dataset.version || "0" : "";  // the version the page shows
    if (doubleTap(detail.path, body, detail.elt, shown)) return;
    if (/\/act$/.test(detail.path) && status && !body.has("seen")) body.append("seen", shown);
    queue.push({ path: detail.path, body: body.toString() });
    save();
    clearMessages();  // a new tap dismisses the last error
    detail.elt.dispatchEvent(new CustomEvent("segnalino-queued", { bubbles: true }));
    pump();
  });

  document.addEventListener("htmx:wsOpen", function (event) {
    wrapper = event.detail.socketWrapper;
    heardAt = Date.now();
    setOnline(true);
    pump();
  });
  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail.event && event.detail.event.code;
    // A socket htmx discarded for a new one (a reconnect closes the old one) says
    // nothing about the new one, and needs no reconnecting: that would discard
    // the new one in turn, and so on once a second. A tap it carried is resent.
    if (latest && event.detail.event && event.detail.event.target !== latest) {
      unanswered(true);
      return;
    }
    setOnline(false);
    unanswered(true);
    // htmx reconnects by itself after an abnormal close; after any other (the
    // server closing a socket it thought dead, say) we ask it to.
    if (wrapper && [1006, 1011, 1012, 1013].indexOf(code) < 0 && code !== 4404) {
      var again = wrapper;
      setTimeout(function () { again.reconnect(); }, 1000);
    }
  });
  document.addEventListener("htmx:wsError", function () { setOnline(false); });
  window.addEventListener("beforeunload", function () { leaving = true; });
  // A pong, an answer or a reload (JSON) is for this script, not a fragment to swap.
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    heardAt = Date.now();
    if (!online) setOnline(true);
    var message = event.detail.message;
    if (typeof message !== "string" || message.charAt(0) !== "{") return;
    event.preventDefault();
    var data = null;
    try { data = JSON.parse(message); } catch (e) { return; }
    if (data && (data.type === "done" || data.type === "refused" || data.type === "failed")) {
      answered(data);
    }
    // This phone's seat is not the one the page was made for (the host freed it,
    // another phone took it): the page is loaded again, own board first; not
    // twice when it is already going (its own "Sit as…" answered HX-Refresh).
    if (data && data.type === "reload" && !leaving) window.location.reload();
  });

  // The server beats once a second on a socket it has nothing else to send on, so
  // two silent seconds mean the network is gone (a beat is missing, not just
  // late): say so within 3 s, and start over. The phone's own ping, every five
  // seconds, tells the server what it shows and that it is still there.
  function watch() {
    if (wrapper && online && Date.now() - heardAt > SILENT_MS) {
      setOnline(false);
      wrapper.reconnect();
    }
  }
  function ping() {
    if (!wrapper || !online) return;
    try { wrapper.sendImmediately(JSON.stringify({ type: "ping", revision: shownRevision() })); }
    catch (e) { /* not open yet */ }
  }

  window.addEventListener("online", function () { retryDelay = 1000; pump(); });
  document.addEventListener("DOMContentLoaded", function () {
    live = document.getElementById("live");
    badge = document.getElementById("connection");
    if (!live) return;
    storeKey = "segnalino:taps:" + live.dataset.session;
    queue = load();
    setInterval(ping, PING_MS);
    setInterval(watch, 250);
    pump();
  });
})();

(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-dismiss]");
    if (button) button.closest(".error").remove();
  });

  // Behaviour named by data attributes, so no page needs an inline script (the
  // Content-Security-Policy allows this file's scripts only).
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el.matches("[data-submit-on-change]")) el.form.submit();
    if (el.dataset && el.dataset.clears && el.form && el.form.elements[el.dataset.clears]) {
      el.form.elements[el.dataset.clears].value = "";  // e.g. a game's own filters
    }
    // A filter menu searches at once (the text box searches as you type; its own
    // change event on leaving it must not search again and re-swap the results).
    if (el.tagName === "SELECT" && el.form && el.form.hasAttribute("data-search-on-select")) {
      htmx.trigger(el.form, "filters-changed");
    }
  });
  // An army form's Power points left (Plastic Attack): counted as the player types.
  document.addEventListener("input", function (event) {
    var el = event.target;
    if (!el.matches || !el.matches("[data-power]") || !el.form) return;
    var out = el.form.querySelector("[data-budget]");
    if (!out) return;
    var used = 0;
    el.form.querySelectorAll("[data-power]").forEach(function (input) {
      used += parseInt(input.value || "0", 10) || 0;
    });
    var left = parseInt(out.dataset.budget, 10) - used;
    out.dataset.over = left < 0 ? "1" : "";
    // One point or many (in both languages: 0 points, 1 point, 2 points).
    var one = Math.abs(left) === 1;
    var text = left < 0 ? (one ? out.dataset.overOne : out.dataset.overText)
      : (one ? out.dataset.leftOne : out.dataset.leftText);
    out.textContent = text.replace("{n}", String(Math.abs(left)));
  });
  // A set-up form keeps what the player typed: saved when it is sent, put back
  // when the server answers with the same form and a reason (data-restore-values).
  function keptKey(form) { return "segnalino:" + form.dataset.keepValues; }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.dataset || !form.dataset.keepValues) return;
    var values = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit") return;
      values.push([el.name, el.type === "checkbox" || el.type === "radio" ? (el.checked ? el.value : null) : el.value]);
    });
    try { sessionStorage.setItem(keptKey(form), JSON.stringify(values)); } catch (e) { /* private mode */ }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form[data-restore-values]");
    if (!form) return;
    var values = [];
    try { values = JSON.parse(sessionStorage.getItem(keptKey(form)) || "[]") || []; } catch (e) { return; }
    var seen = {};
    values.forEach(function (pair) {
      var name = pair[0], value = pair[1];
      var fields = form.querySelectorAll("[name='" + name.replace(/'/g, "") + "']");
      var index = seen[name] = (seen[name] || 0);
      seen[name] += 1;
      var el = fields[index];
      if (!el) return;
      if (el.type === "checkbox" || el.type === "radio") el.checked = value !== null;
      else el.value = value;
    });
  });
  // Two inputs showing one value (the bid's slider and its number box).
  document.addEventListener("input", function (event) {
    var el = event.target;
    var other = el.dataset && el.dataset.mirror && el.form && el.form.querySelector("#" + el.dataset.mirror);
    if (other) other.value = el.value;
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
  // A form that starts afresh once its tap is queued (the shot helper).
  document.addEventListener("segnalino-queued", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.resetUrl && form.id) {
      htmx.ajax("GET", form.dataset.resetUrl, { target: "#" + form.id, swap: "outerHTML" });
    }
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
  // Every [data-deadline] ticks: the one at the top and the one beside the button
  // the player must press (Shazamm's "Lock in"); one "sync" per deadline at zero.
  var asked = {};
  function tick() {
    var els = document.querySelectorAll("[data-deadline]");
    if (!els.length) { clearInterval(timer); timer = null; return; }
    els.forEach(function (el) {
      var left = Math.ceil((Date.parse(el.dataset.deadline) - Date.now()) / 1000);
      var out = el.querySelector(".countdown");
      if (out) out.textContent = String(Math.max(0, left));
      if (left <= 0 && !asked[el.dataset.deadline] && socket) {
        asked[el.dataset.deadline] = true;
        socket.send(JSON.stringify({ type: "sync" }));
      }
    });
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

// A feed (the history: newest first, data-feed="<its length>"): a live update
// sends only the new items, to go at the top. An item the phone already shows (a
// reply to its own request put it there) is not shown twice, and the list keeps
// its length, as the server's does.
document.addEventListener("htmx:oobBeforeSwap", function (event) {
  var target = event.detail.target;
  var incoming = event.detail.fragment;
  if (!target || !target.dataset || !target.dataset.feed || !incoming || !incoming.children) return;
  Array.prototype.forEach.call(incoming.children, function (item) {
    var shown = item.id && document.getElementById(item.id);
    if (shown && shown.parentNode === target) shown.remove();
  });
});
document.addEventListener("htmx:oobAfterSwap", function (event) {
  var target = event.detail.target;
  if (!target || !target.dataset || !target.dataset.feed) return;
  var length = parseInt(target.dataset.feed, 10) || 0;
  while (target.children.length > length) target.lastElementChild.remove();
});

// A live update must not fold a panel the player has open (cubes, weapons), nor
// undo the numbers they are choosing for a hit (a form with data-keep-choices).
(function () {
  "use strict";
  var open = [], chosen = [];
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || !target.querySelectorAll) return;
    // Only a panel the player opened: one the server shows open (the seats, for
    // a phone still choosing) follows the server (it folds once the phone sits).
    if (target.matches("details[id][open][data-opened]")) open.push(target.id);
    target.querySelectorAll("details[id][open][data-opened]").forEach(function (d) { open.push(d.id); });
    target.querySelectorAll("form[data-keep-choices]").forEach(function (form, index) {
      form.querySelectorAll("input[type=radio]:checked").forEach(function (input) {
        if (!input.defaultChecked) chosen.push([target.id, index, input.name, input.value]);
      });
    });
  });
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("summary");
    var details = summary && summary.parentElement;
    if (details && details.tagName === "DETAILS") details.dataset.opened = "1";
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    open.forEach(function (id) {
      var d = document.getElementById(id);
      if (d) { d.open = true; d.dataset.opened = "1"; }
    });
    chosen.forEach(function (entry) {
      var holder = document.getElementById(entry[0]);
      var form = holder && holder.querySelectorAll("form[data-keep-choices]")[entry[1]];
      if (!form) return;
      form.querySelectorAll("input[type=radio]").forEach(function (input) {
        if (input.name === entry[2] && input.value === entry[3]) input.checked = true;
      });
    });
    open = [];
    chosen = [];
  });
})();

// Set-up forms: a choice of player ("Who plays first?", "This phone plays as") names
// each row as typed: <option data-name-from="name_0" data-fallback="Player 1">.
// Also after the form is put back (an error, the back button).
(function () {
  "use strict";
  function rename(form) {
    form.querySelectorAll("option[data-name-from]").forEach(function (option) {
      var input = document.getElementById(option.dataset.nameFrom);
      var typed = input ? input.value.trim().replace(/\s+/g, " ") : "";
      option.textContent = typed || option.dataset.fallback;
    });
  }
  function renameAll() {
    document.querySelectorAll("form").forEach(function (form) {
      if (form.querySelector("option[data-name-from]")) rename(form);
    });
  }
  document.addEventListener("input", function (event) {
    var form = event.target.form;
    if (form && form.querySelector("option[data-name-from]")) rename(form);
  });
  document.addEventListener("DOMContentLoaded", renameAll);
  window.addEventListener("pageshow", renameAll);
})();
