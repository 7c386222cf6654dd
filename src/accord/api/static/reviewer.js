// Accord reviewer page: deadline countdowns, the queue's selection and the keyboard
// (J/K, X, Enter, A/R, 0-9, ?). Everything works without it; it only adds speed.
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
      var left = new Date(el.dataset.deadline).getTime() - Date.now();
      el.textContent = remaining(left);
      el.classList.toggle("overdue", left <= 0);
      el.classList.toggle("soon", left > 0 && left < 3600 * 1000);
    });
  }

  function typing(target) {
    return target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" ||
                      target.tagName === "SELECT" || target.isContentEditable);
  }

  // -- the queue: rows, selection that survives the rows' refresh ----------------------------
  var chosen = new Set(), current = null;

  function rows() { return Array.prototype.slice.call(document.querySelectorAll("tr[data-href]")); }

  function boxes() {
    return Array.prototype.slice.call(document.querySelectorAll('#queue-rows input[name="item"]'));
  }

  function counted() {
    var label = document.getElementById("selected-count");
    if (label) label.textContent = chosen.size ? "(" + chosen.size + " selected)" : "(none selected)";
  }

  function restore() {
    var present = new Set();
    boxes().forEach(function (box) { present.add(box.value); box.checked = chosen.has(box.value); });
    chosen.forEach(function (id) { if (!present.has(id)) chosen.delete(id); });
    rows().forEach(function (r) {
      var on = r.dataset.item === current;
      r.classList.toggle("selected", on);
      if (on) r.setAttribute("aria-selected", "true"); else r.removeAttribute("aria-selected");
    });
    counted();
  }

  function select(index) {
    var all = rows();
    if (!all.length) return;
    index = Math.max(0, Math.min(all.length - 1, index));
    current = all[index].dataset.item;
    restore();
    all[index].focus();
  }

  function toggle(box, on) {
    box.checked = on;
    if (on) chosen.add(box.value); else chosen.delete(box.value);
    counted();
  }

  function toggleHelp(show) {
    var help = document.getElementById("keys-help");
    var button = document.querySelector(".help-toggle");
    help.hidden = show === undefined ? !help.hidden : !show;
    if (button) button.setAttribute("aria-expanded", String(!help.hidden));
  }

  function pick(selector) {
    var choice = document.querySelector(selector);
    if (!choice) return false;
    choice.checked = true;
    var reasoning = document.getElementById("reasoning");
    if (reasoning) reasoning.focus();
    return true;
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { toggleHelp(false); return; }
    if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    var all = rows(), index = all.findIndex(function (r) { return r.dataset.item === current; });
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (key === "j") { select(index + 1); event.preventDefault(); }
    else if (key === "k") { select(index < 0 ? 0 : index - 1); event.preventDefault(); }
    else if (key === "x" && index >= 0) {
      var box = all[index].querySelector('input[name="item"]');
      if (box) { toggle(box, !box.checked); event.preventDefault(); }
    }
    else if (key === "Enter" && index >= 0 && event.target === all[index]) {
      window.location.href = all[index].dataset.href;
    }
    else if (key === "?") { toggleHelp(); event.preventDefault(); }
    else if (key === "a" || key === "r") {
      if (pick('input[name="verdict"][data-accel="' + key + '"]')) event.preventDefault();
    }
    else if (key === "0") { if (pick("#choice-deny")) event.preventDefault(); }
    else if (key === "w" && pick("#choice-outcome")) {
      document.getElementById("outcome").focus();
      event.preventDefault();
    }
    else if (/^[1-9]$/.test(key)) {
      if (pick('input[name="verdict"][data-key="' + key + '"]')) event.preventDefault();
    }
  });

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.name === "item") toggle(target, target.checked);
    else if (target.id === "select-all") boxes().forEach(function (b) { toggle(b, target.checked); });
  });

  document.addEventListener("htmx:afterSettle", function () { restore(); tick(); });

  document.addEventListener("DOMContentLoaded", function () {
    tick();
    setInterval(tick, 1000);
    var button = document.querySelector(".help-toggle");
    if (button) button.addEventListener("click", function () { toggleHelp(); });
  });
})();
