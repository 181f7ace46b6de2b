"use strict";
(function () {
  const table = document.getElementById("species");
  const body = table.tBodies[0];
  const input = document.getElementById("filter");
  const heads = Array.from(table.tHead.rows[0].cells);

  function read() {
    const h = new URLSearchParams(location.hash.slice(1));
    const sort = h.get("sort");
    // A sort the page has no column for (an address edited by hand) is no sort.
    const column = sort !== null && /^[0-9]+$/.test(sort) && Number(sort) < heads.length ? sort : null;
    const open = (h.get("open") || "").split(",").filter(function (k) { return k !== ""; });
    return { sort: column, dir: h.get("dir") === "desc" ? "desc" : "asc", filter: h.get("filter") || "", open: open, selftest: h.has("selftest") };
  }

  function keep(s) {
    const h = new URLSearchParams(location.hash.slice(1));
    if (s.sort !== null) { h.set("sort", s.sort); h.set("dir", s.dir); }
    if (s.filter) { h.set("filter", s.filter); } else { h.delete("filter"); }
    if (s.open.length > 0) { h.set("open", s.open.join(",")); } else { h.delete("open"); }
    history.replaceState(null, "", "#" + h.toString());
  }

  function value(row, i) {
    const text = row.cells[i].textContent;
    const n = Number(text);
    return text !== "" && !Number.isNaN(n) ? n : text.toLowerCase();
  }

  function apply(s) {
    const rows = Array.from(body.rows);
    if (s.sort !== null) {
      const i = Number(s.sort);
      const sign = s.dir === "desc" ? -1 : 1;
      rows.sort(function (a, b) {
        const x = value(a, i), y = value(b, i);
        const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
        return sign * c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    }
    const f = s.filter.toLowerCase();
    rows.forEach(function (r) { r.hidden = f !== "" && !r.textContent.toLowerCase().includes(f); });
    input.value = s.filter;
    document.querySelectorAll("details[data-key]").forEach(function (d) {
      d.open = s.open.includes(d.dataset.key);
    });
  }

  heads.forEach(function (th, i) {
    th.addEventListener("click", function () {
      const s = read();
      s.dir = s.sort === String(i) && s.dir === "asc" ? "desc" : "asc";
      s.sort = String(i);
      keep(s);
      apply(s);
    });
  });
  input.addEventListener("input", function () {
    const s = read();
    s.filter = input.value;
    keep(s);
    apply(s);
  });
  // An explanation opened or closed is kept in the fragment too, so a reload keeps it.
  document.querySelectorAll("details[data-key]").forEach(function (d) {
    d.addEventListener("toggle", function () {
      const s = read();
      const others = s.open.filter(function (k) { return k !== d.dataset.key; });
      s.open = d.open ? others.concat([d.dataset.key]) : others;
      keep(s);
    });
  });

  const state = read();
  apply(state);

  if (state.selftest) {
    // Sort by cost, most first, then filter on the first species' key: the rows shown
    // must be in order and each must hold the filter's text.
    heads[3].click();
    heads[3].click();
    const costs = Array.from(body.rows).map(function (r) { return Number(r.cells[3].textContent); });
    const sorted = costs.every(function (c, i) { return i === 0 || costs[i - 1] >= c; });
    const first = body.rows[body.rows.length - 1].cells[0].textContent;
    input.value = first;
    input.dispatchEvent(new Event("input"));
    const shown = Array.from(body.rows).filter(function (r) { return !r.hidden; });
    const filtered = shown.length > 0 && shown.every(function (r) { return r.textContent.toLowerCase().includes(first.toLowerCase()); });
    const kept = location.hash.includes("sort=3") && location.hash.includes("dir=desc") && location.hash.includes("filter=");
    // The charts are laid out: drawn wide, with bars.
    const chart = document.getElementById("counts");
    const drawn = chart.getBoundingClientRect().width > 100 && chart.querySelectorAll("rect").length > 0 &&
      document.getElementById("danger").getBoundingClientRect().height > 100;
    const out = document.getElementById("selftest");
    out.hidden = false;
    out.textContent = "selftest: " + (sorted && filtered && kept && drawn ? "pass" : "fail") +
      "; charts drawn: " + drawn +
      "; sorted by cost, most first: " + costs.join(",") +
      "; filter " + JSON.stringify(first) + " shows " + shown.length + " of " + body.rows.length +
      "; fragment " + location.hash;
  }

  // Written by `watch`: reload (keeping the fragment) every so often, but not while the
  // filter is being typed in.
  const every = Number(document.body.dataset.watch || 0);
  if (every > 0) {
    const tick = function () {
      if (document.activeElement === input) {
        setTimeout(tick, every);
      } else {
        location.reload();
      }
    };
    setTimeout(tick, every);
  }
})();
