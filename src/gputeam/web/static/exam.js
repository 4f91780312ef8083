// The exam timer: shows the seconds the server counted (re-synchronised by every save),
// announces 10, 5 and 1 minutes left to screen readers (never every second), and reloads
// the page once time and the grace are over (the server then shows the result).
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
      window.setTimeout(function () { window.location.reload(); }, (grace + 2) * 1000);
    }
  }

  document.body.addEventListener("htmx:afterSwap", function () {
    var status = document.getElementById("save-status");
    var r = status && status.getAttribute("data-remaining");
    if (r !== null && r !== undefined && r !== "") {
      end = Date.now() + parseInt(r, 10) * 1000;
    }
  });
  document.body.addEventListener("htmx:responseError", function (event) {
    if (event.detail.xhr.status === 409) { window.location.reload(); }
  });
  tick();
  window.setInterval(tick, 1000);
}());
