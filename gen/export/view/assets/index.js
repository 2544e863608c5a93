/* alfred-gen view: the index page. Rows come from data/index.js (window.ALFRED_VIEW_INDEX), embedded
   as a script so the page works from file://. Filters hide rows; the charts count the rows shown,
   slot by slot as `alfred-gen stats` does, with the same balance (normalised entropy). The filter
   state lives in the URL's #hash, so coming back from a trajectory page keeps it. */
(function () {
  "use strict";
  var data = window.ALFRED_VIEW_INDEX || { title: "", rows: [] };
  var rows = data.rows;
  var FILTERS = ["task_type", "room_type", "scene", "object", "receptacle", "status"];
  var SLOTS = [["task_type", "task type"], ["object", "object"], ["receptacle", "receptacle"],
               ["mrecep", "movable receptacle"], ["scene", "scene"], ["room_type", "room type"]];

  function esc(text) {
    return String(text == null ? "" : text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function byId(id) { return document.getElementById(id); }
  function statusClass(word) { return "status-" + String(word || "").replace(/[^a-z]+/gi, "-"); }

  function counts(list, slot) {
    var out = {};
    list.forEach(function (row) {
      var value = row[slot];
      if (value === undefined || value === "") { return; }
      out[value] = (out[value] || 0) + 1;
    });
    return out;
  }
  function sortedEntries(map) {
    return Object.keys(map).map(function (k) { return [k, map[k]]; })
      .sort(function (a, b) { return b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0); });
  }
  function balance(map) {  /* Shannon entropy / log(values seen): 1.0 is perfectly even */
    var values = Object.keys(map).map(function (k) { return map[k]; }).filter(function (c) { return c > 0; });
    var total = values.reduce(function (a, b) { return a + b; }, 0);
    if (!total) { return 0; }
    if (values.length <= 1) { return 1; }
    var h = 0;
    values.forEach(function (c) { var p = c / total; h -= p * Math.log(p); });
    return h / Math.log(values.length);
  }

  function fillSelects() {
    FILTERS.forEach(function (slot) {
      var select = byId("filter-" + slot);
      var entries = Object.keys(counts(rows, slot)).sort(function (a, b) {
        return slot === "scene" ? Number(a) - Number(b) : (a < b ? -1 : a > b ? 1 : 0);
      });
      var html = '<option value="">all</option>';
      entries.forEach(function (value) { html += '<option value="' + esc(value) + '">' + esc(value) + "</option>"; });
      select.innerHTML = html;
      select.addEventListener("change", apply);
    });
    byId("filter-text").addEventListener("input", apply);
    byId("filter-reset").addEventListener("click", function () {
      FILTERS.forEach(function (slot) { byId("filter-" + slot).value = ""; });
      byId("filter-text").value = "";
      apply();
    });
  }

  function renderRows() {
    var html = [];
    rows.forEach(function (row, i) {
      var thumb = row.thumb ? '<img loading="lazy" decoding="async" width="64" height="64" alt="" src="' + esc(row.thumb) + '">'
                            : '<span class="none"></span>';
      var name = row.page ? '<a href="' + esc(row.page) + '">' + esc(row.task_type) + "</a>" : esc(row.task_type || row.path);
      var length = row.page ? row.low + " / " + row.frames + " / " + row.subgoals : "";
      html.push('<tr data-i="' + i + '" class="' + statusClass(row.status) + '">' +
        '<td class="thumb">' + (row.page ? '<a href="' + esc(row.page) + '" tabindex="-1">' + thumb + "</a>" : thumb) + "</td>" +
        "<td>" + name + "</td><td>" + esc(row.object) + "</td><td>" + esc(row.receptacle) + "</td><td>" +
        esc(row.mrecep) + "</td><td>" + esc(row.floor_plan || row.scene) + "</td><td>" + esc(row.room_type) + "</td><td>" +
        length + '</td><td title="' + esc(row.status_detail) + '">' + esc(row.status) + "</td><td>" +
        esc(row.task_desc || row.status_detail) + "</td></tr>");
    });
    document.querySelector("#rows tbody").innerHTML = html.join("");
  }

  function renderCharts(list) {
    var html = [];
    SLOTS.forEach(function (slot) {
      var map = counts(list, slot[0]);
      var entries = sortedEntries(map);
      if (!entries.length) { return; }
      var total = entries.reduce(function (a, e) { return a + e[1]; }, 0);
      var top = entries[0][1];
      html.push('<div class="chart" data-slot="' + slot[0] + '"><h3>' + esc(slot[1]) + ": " + total + " trajectories, " +
        entries.length + ' values, balance <span class="balance">' + balance(map).toFixed(3) + '</span></h3><div class="bars">');
      entries.forEach(function (e) {
        html.push('<div class="bar" data-value="' + esc(e[0]) + '" data-count="' + e[1] + '"><span class="name" title="' +
          esc(e[0]) + '">' + esc(e[0]) + '</span><span class="fill" style="width:' + (100 * e[1] / top).toFixed(1) +
          '%"></span><span class="n">' + e[1] + "</span></div>");
      });
      html.push("</div></div>");
    });
    byId("charts").innerHTML = html.join("");
  }

  function readHash() {
    var params = new URLSearchParams(location.hash.replace(/^#/, ""));
    FILTERS.forEach(function (slot) {
      var value = params.get(slot);
      var select = byId("filter-" + slot);
      if (value !== null && Array.prototype.some.call(select.options, function (o) { return o.value === value; })) {
        select.value = value;
      }
    });
    if (params.get("text")) { byId("filter-text").value = params.get("text"); }
  }
  function writeHash() {
    var params = new URLSearchParams();
    FILTERS.forEach(function (slot) { var v = byId("filter-" + slot).value; if (v) { params.set(slot, v); } });
    var text = byId("filter-text").value.trim();
    if (text) { params.set("text", text); }
    var hash = params.toString();
    if (hash !== location.hash.replace(/^#/, "")) { history.replaceState(null, "", hash ? "#" + hash : location.pathname); }
  }

  function apply() {
    var wanted = {};
    FILTERS.forEach(function (slot) { wanted[slot] = byId("filter-" + slot).value; });
    var words = byId("filter-text").value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = [];
    var trs = document.querySelectorAll("#rows tbody tr");
    rows.forEach(function (row, i) {
      var ok = FILTERS.every(function (slot) { return !wanted[slot] || String(row[slot]) === wanted[slot]; });
      if (ok && words.length) {
        var text = [row.task_desc, row.task_type, row.object, row.receptacle, row.mrecep, row.floor_plan, row.path]
          .join(" ").toLowerCase();
        ok = words.every(function (w) { return text.indexOf(w) >= 0; });
      }
      trs[i].hidden = !ok;
      if (ok) { shown.push(row); }
    });
    byId("count").textContent = shown.length + " of " + rows.length + " trajectories";
    renderCharts(shown);
    writeHash();
  }

  document.title = "alfred-gen: " + (data.title || "dataset");
  byId("title").textContent = data.title || "dataset";
  var withFrames = rows.filter(function (r) { return r.thumb; }).length;
  byId("summary").textContent = rows.length + " trajectories, " + withFrames + " with frames. Click a row to open it.";
  fillSelects();
  renderRows();
  readHash();
  apply();
})();
