// Accord reviewer page: deadline countdowns and the keyboard (J/K, Enter, 1-9, ?).
(function () {
  "use strict";

  function remaining(ms) {
    if (ms <= 0) return "overdue";
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600),
        m = Math.floor(s % 3600 / 60);
    if (d > 0) return d + "d " + h + "h left";
    if (h > 0) return h + "h " + m + "m left";
    return m + "m " + (s % 60) + "s left";
  }

  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      el.textContent = remaining(new Date(el.dataset.deadline).getTime() - Date.now());
    });
  }

  function typing(target) {
    return target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" ||
                      target.tagName === "SELECT" || target.isContentEditable);
  }

  function rows() { return Array.prototype.slice.call(document.querySelectorAll("tr[data-href]")); }

  function select(index) {
    var all = rows();
    if (!all.length) return;
    index = Math.max(0, Math.min(all.length - 1, index));
    all.forEach(function (r) { r.classList.remove("selected"); r.removeAttribute("aria-selected"); });
    all[index].classList.add("selected");
    all[index].setAttribute("aria-selected", "true");
    all[index].focus();
  }

  function toggleHelp() {
    var help = document.getElementById("keys-help");
    var button = document.querySelector(".help-toggle");
    help.hidden = !help.hidden;
    if (button) button.setAttribute("aria-expanded", String(!help.hidden));
  }

  document.addEventListener("keydown", function (event) {
    if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    var all = rows(), current = all.findIndex(function (r) { return r.classList.contains("selected"); });
    if (event.key === "j" || event.key === "J") { select(current + 1); event.preventDefault(); }
    else if (event.key === "k" || event.key === "K") { select(current < 0 ? 0 : current - 1); event.preventDefault(); }
    else if (event.key === "Enter" && current >= 0) { window.location.href = all[current].dataset.href; }
    else if (event.key === "?") { toggleHelp(); }
    else if (/^[1-9]$/.test(event.key)) {
      var choice = document.querySelector('input[name="choice"][data-key="' + event.key + '"]');
      if (choice) {
        choice.checked = true;
        var reasoning = document.getElementById("reasoning");
        if (reasoning) reasoning.focus();
        event.preventDefault();
      }
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    tick();
    setInterval(tick, 1000);
    var button = document.querySelector(".help-toggle");
    if (button) button.addEventListener("click", toggleHelp);
  });
})();
