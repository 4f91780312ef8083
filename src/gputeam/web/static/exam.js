// The exam timer: shows the seconds the server counted (re-synchronised by every save),
// announces 10, 5 and 1 minutes left to screen readers (never every second), and reloads
// the page once time and the grace are over (the server then shows the result).
//
// Answers are never lost to a dropped connection: each answer is queued in sessionStorage
// before htmx sends it and taken off the queue once the server has stored it. A save that
// cannot reach the server (htmx:sendError) or that the server fails (5xx) stays queued, the
// page says "Not saved — retrying", and the queue is sent again when the browser is back
// online, every few seconds while anything is queued, after a reload (the queued answers
// are put back on the page first) and before the reload at time-up, which also sends text
// typed since the last save.
//
// Each question carries the sequence number the server gave its answer (seq:<id>); every
// save sends it and the server's reply gives the new one, put back on the page here. A
// save from a page that is out of date (another tab saved since) is refused: the page
// says so, with a link to reload it, and is not reloaded by itself.
(function () {
  "use strict";
  var timer = document.getElementById("timer");
  if (!timer) { return; }
  var text = document.getElementById("timer-text");
  var announce = document.getElementById("timer-announce");
  var grace = parseInt(timer.getAttribute("data-grace") || "15", 10);
  var end = Date.now() + parseInt(timer.getAttribute("data-remaining"), 10) * 1000;
  // the page's language: its texts come from the timer's data attributes (the server
  // translates them), "{min}" and "{sec}" filled in here
  function said(name, fallback) { return timer.getAttribute("data-" + name) || fallback; }
  var previous = null;
  var marks = [10, 5, 1];
  var reloading = false;

  // ------------------------------------------------------------ the queue of unsaved answers
  var form = document.getElementById("exam");
  var key = form ? "gputeam-exam-pending:" + form.getAttribute("action") : null;
  var sending = null;  // the flush in flight (a promise), if any
  var failing = false;
  var retry = null;
  var lastSent = {};  // item -> the answer (as JSON) last sent, to find unsent text at time-up

  function readQueue() {
    try { return JSON.parse(window.sessionStorage.getItem(key) || "{}") || {}; } catch (e) { return {}; }
  }
  function writeQueue(queue) {
    try {
      if (Object.keys(queue).length) { window.sessionStorage.setItem(key, JSON.stringify(queue)); }
      else { window.sessionStorage.removeItem(key); }
    } catch (e) { /* storage full or disabled: the answer is still on the page */ }
  }
  function itemOf(fieldset) {
    var present = fieldset && fieldset.querySelector("input[name=present]");
    return present ? present.value : null;
  }
  function belongs(name, value, item) {
    return (name === "present" && value === item) || name === "q:" + item || name === "kind:" + item ||
      name === "seq:" + item || name.indexOf("q:" + item + ":") === 0;
  }
  // the form fields of one question, as [name, value] pairs (what the save endpoint reads)
  function answerOf(item) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (belongs(name, String(value), item)) { pairs.push([name, String(value)]); }
    });
    return pairs;
  }
  function queue(item, pairs) {
    var q = readQueue();
    q[item] = pairs;
    writeQueue(q);
  }
  function unqueue(item, pairs) {  // only the answer sent: a newer one stays queued
    var q = readQueue();
    if (q[item] && JSON.stringify(q[item]) === JSON.stringify(pairs)) { delete q[item]; writeQueue(q); }
  }
  // put queued answers back on the page (after a reload, the page shows what the server has)
  function restore(q) {
    Object.keys(q).forEach(function (item) {
      var chosen = {}, values = {};
      q[item].forEach(function (p) { chosen[p[0] + "\u0000" + p[1]] = true; values[p[0]] = p[1]; });
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || el.name === "present" || !belongs(el.name, "", item)) { return; }
        if (el.type === "radio" || el.type === "checkbox") { el.checked = !!chosen[el.name + "\u0000" + el.value]; }
        else if (el.type !== "hidden") { el.value = values[el.name] || ""; }
      });
    });
  }
  function status(message) {
    var box = document.getElementById("save-status");
    if (box) { box.textContent = message; box.removeAttribute("data-remaining"); }
  }
  function notSaved() {
    var message = said("not-saved", "Not saved — retrying");
    status(message);
    if (!failing) { announce.textContent = message; }
    failing = true;
    if (retry === null) { retry = window.setTimeout(function () { retry = null; flush(); }, 5000); }
  }
  function stale(xhr) { return xhr.status === 409 && (xhr.responseText || "").indexOf("data-stale") >= 0; }
  function synchronise(remaining) {
    if (remaining !== null && remaining !== undefined && remaining !== "") {
      end = Date.now() + parseInt(remaining, 10) * 1000;
    }
  }
  // the sequence numbers a save returned: the page's own from here on
  function renumber(fresh) {
    var numbers = {};
    try { numbers = JSON.parse(fresh.getAttribute("data-sequences") || "{}") || {}; } catch (e) { numbers = {}; }
    Array.prototype.forEach.call(form ? form.elements : [], function (el) {
      if (el.name && el.name.indexOf("seq:") === 0 && numbers.hasOwnProperty(el.name.slice(4))) {
        el.value = String(numbers[el.name.slice(4)]);
      }
    });
  }
  // put the server's save status in place; whether it says the page is out of date
  function showResponse(html) {
    var box = document.createElement("div");
    box.innerHTML = html;
    var fresh = box.querySelector("#save-status");
    var old = document.getElementById("save-status");
    if (fresh && old) { old.replaceWith(fresh); synchronise(fresh.getAttribute("data-remaining")); renumber(fresh); }
    return !!(fresh && fresh.hasAttribute("data-stale"));
  }
  // send every queued answer, one at a time; resolves when done or when one failed
  function flush() {
    if (sending) { return sending; }
    var items = form ? Object.keys(readQueue()) : [];
    if (!items.length) { return Promise.resolve(); }
    var token = (form.querySelector("input[name=csrf_token]") || {}).value || "";
    function next(i) {
      if (i >= items.length) { return Promise.resolve(true); }
      var item = items[i], pairs = readQueue()[item];
      if (!pairs) { return next(i + 1); }
      var body = new URLSearchParams();
      body.append("csrf_token", token);
      pairs.forEach(function (p) { body.append(p[0], p[1]); });
      lastSent[item] = JSON.stringify(pairs);
      return window.fetch(form.getAttribute("action") + "?item=" + encodeURIComponent(item), {
        method: "POST", body: body, credentials: "same-origin",
        headers: {"HX-Request": "true", "X-CSRF-Token": token}
      }).then(function (response) {
        if (response.status >= 500) { return false; }
        return response.text().then(function (html) {
          unqueue(item, pairs);  // stored, or refused for good (time up, a bad value, out of date)
          if (showResponse(html)) { return true; }  // out of date: the candidate reloads
          if (response.status === 409) { writeQueue({}); window.location.reload(); return true; }
          return next(i + 1);
        });
      }, function () { return false; });
    }
    sending = next(0).then(function (ok) {
      sending = null;
      if (ok) { failing = false; } else { notSaved(); }
    });
    return sending;
  }

  if (form) {
    form.querySelectorAll("fieldset.question").forEach(function (fieldset) {
      var item = itemOf(fieldset);
      lastSent[item] = JSON.stringify(answerOf(item));
    });
    document.body.addEventListener("htmx:beforeRequest", function (event) {
      var item = itemOf(event.detail.elt);
      if (item === null) { return; }
      var pairs = answerOf(item);
      event.detail.elt.examSent = pairs;
      lastSent[item] = JSON.stringify(pairs);
      queue(item, pairs);
    });
    // htmx swaps nothing (hx-swap="none"): the save status is put in place here, so two
    // questions saved at once never swap into a status the other one has just replaced
    // (a swap error that stopped the question's next queued save, which was then lost)
    document.body.addEventListener("htmx:afterRequest", function (event) {
      var item = itemOf(event.detail.elt), xhr = event.detail.xhr;
      if (item !== null && xhr && ((xhr.status >= 200 && xhr.status < 300) || xhr.status === 422 || stale(xhr))) {
        showResponse(xhr.responseText);
      }
      if (item !== null && xhr && xhr.status > 0 && xhr.status < 500) {
        unqueue(item, event.detail.elt.examSent || []);  // stored, or refused for good
        if (xhr.status < 300 && failing) { flush(); }  // the connection is back: send the rest
      }
    });
    document.body.addEventListener("htmx:sendError", notSaved);
    window.addEventListener("online", function () { flush(); });
    var waiting = readQueue();
    if (Object.keys(waiting).length) { restore(waiting); flush(); }
  }

  // text typed since the last save (the keyup save waits 2 s), queued at time-up
  function queueUnsentText() {
    if (!form) { return; }
    form.querySelectorAll("fieldset.question").forEach(function (fieldset) {
      var item = itemOf(fieldset);
      if (!fieldset.querySelector("textarea, input.answer")) { return; }
      var pairs = answerOf(item);
      if (JSON.stringify(pairs) !== lastSent[item]) { queue(item, pairs); }
    });
  }

  function left() { return Math.max(0, Math.round((end - Date.now()) / 1000)); }

  function show(seconds) {
    var m = Math.floor(seconds / 60), s = seconds % 60;
    text.textContent = seconds > 0
      ? said("clock", "{min} min {sec} s").replace("{min}", m).replace("{sec}", (s < 10 ? "0" : "") + s)
      : said("up", "time is up");
  }

  function tick() {
    var now = left();
    show(now);
    if (previous !== null) {
      marks.forEach(function (m) {
        if (previous > m * 60 && now <= m * 60 && now > 0) {
          announce.textContent = m === 1
            ? said("one-minute", "1 minute left")
            : said("minutes", "{min} minutes left").replace("{min}", m);
        }
      });
      if (previous > 0 && now === 0) { announce.textContent = said("over", "Time is up."); }
    }
    previous = now;
    if (now === 0 && !reloading) {
      reloading = true;
      queueUnsentText();
      flush();  // within the grace: the server still takes it
      window.setTimeout(function () {
        queueUnsentText();
        var reload = function () { window.location.reload(); };
        var wait = window.setTimeout(reload, 3000);  // never wait for a dead connection for long
        flush().then(function () { window.clearTimeout(wait); reload(); });
      }, (grace + 2) * 1000);
    }
  }

  document.body.addEventListener("htmx:afterSwap", function () {
    var status = document.getElementById("save-status");
    synchronise(status && status.getAttribute("data-remaining"));
  });
  document.body.addEventListener("htmx:responseError", function (event) {
    var code = event.detail.xhr.status;
    if (code === 409 && !stale(event.detail.xhr)) { writeQueue({}); window.location.reload(); }
    else if (code >= 500) { notSaved(); }
  });
  // keep what the keyboard focuses from scrolling under the sticky bar (exam.css: the
  // scroll padding, here the bar's height as laid out: it wraps on narrow windows)
  var bar = timer.closest(".exam-bar");
  function padScroll() {
    if (bar) { document.documentElement.style.scrollPaddingTop = (bar.offsetHeight + 16) + "px"; }
  }
  padScroll();
  window.addEventListener("resize", padScroll);
  tick();
  window.setInterval(tick, 1000);
}());
