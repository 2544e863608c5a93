/* alfred-gen view: one trajectory's page. Its data comes from t/<key>.js (window.ALFRED_VIEW_TRAJ).
   Frame i is the trajectory's images[i]: the first frame of a low action shows the state it was
   chosen in (its interaction mask is drawn there), later ones the state after it. The body's
   data-frame attribute says which frame is shown. */
(function () {
  "use strict";
  var T = window.ALFRED_VIEW_TRAJ;
  var COLORS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f", "#bab0ac", "#ff9da7"];
  var byId = function (id) { return document.getElementById(id); };
  var frames = T.frames;  /* [stem, low_idx, high_idx, before] */
  var count = frames.length;
  var current = -1;
  var timer = null;
  var maskCache = {};
  var kinds = {};
  T.kinds.forEach(function (k) { kinds[k] = true; });
  var SUFFIX = { rgb: ".jpg", depth: ".png", seg: ".png" };

  function esc(text) {
    return String(text == null ? "" : text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function src(kind, i) { return T.frame_dir + "/" + kind + "/" + frames[i][0] + SUFFIX[kind]; }

  /* --- static parts ------------------------------------------------------------------------------ */
  function header() {
    var r = T.row;
    byId("meta").textContent = [r.floor_plan + " (" + r.room_type + ")", T.task_id, r.low + " low actions",
      r.frames + " frames", r.subgoals + " subgoals", "status: " + r.status + (r.status_detail ? " (" + r.status_detail + ")" : ""),
      "language: " + T.language.source].join(" \u00b7 ");
    byId("task-desc").textContent = T.language.task_desc;
  }

  function timeline() {
    var html = [];
    T.subgoals.forEach(function (s, k) {
      if (s.first < 0) { return; }
      var width = s.last - s.first + 1;
      html.push('<div class="seg" data-subgoal="' + k + '" title="' + esc((k + 1) + ". " + s.instruction) +
        '" style="flex-grow:' + width + ";background:" + COLORS[k % COLORS.length] + '">' + (k + 1) + "</div>");
    });
    html.push('<div class="marker"></div>');
    byId("timeline").innerHTML = html.join("");
    Array.prototype.forEach.call(document.querySelectorAll("#timeline .seg"), function (el) {
      el.addEventListener("click", function () { show(T.subgoals[Number(el.dataset.subgoal)].first); });
    });
  }

  function subgoalList() {
    byId("subgoals").innerHTML = T.subgoals.map(function (s, k) {
      return '<li data-subgoal="' + k + '">' + esc(s.instruction) + '<span class="what">' + esc(s.label) +
        (s.first >= 0 ? " \u00b7 frames " + (s.first + 1) + "-" + (s.last + 1) : "") + "</span></li>";
    }).join("");
    Array.prototype.forEach.call(document.querySelectorAll("#subgoals li"), function (li) {
      li.addEventListener("click", function () {
        var s = T.subgoals[Number(li.dataset.subgoal)];
        if (s.first >= 0) { show(s.first); }
      });
    });
  }

  function annotations() {
    var anns = T.annotations;
    if (!anns.length) { byId("annotations").innerHTML = '<p class="dim">none</p>'; return; }
    byId("annotations").innerHTML = anns.map(function (a) {
      var who = a.who === "template" ? "template (generated)" : "annotator " + a.who;
      return '<div class="ann"><div class="who">' + esc(who) + "</div><div>" + esc(a.task_desc) + "</div><ol>" +
        a.high_descs.map(function (d) { return "<li>" + esc(d) + "</li>"; }).join("") + "</ol></div>";
    }).join("");
  }

  function plan() {
    byId("plan").innerHTML = T.subgoals.map(function (s) {
      var pa = s.planner_action || {};
      var extra = Object.keys(pa).filter(function (k) { return k !== "action"; }).sort()
        .map(function (k) { return k + "=" + JSON.stringify(pa[k]); }).join(" ");
      return "<li>" + esc(s.label) + (extra ? ' <span class="dim">' + esc(extra) + "</span>" : "") + "</li>";
    }).join("");
    byId("pddl-problem").textContent = T.pddl_problem || "(no pddl_states/problem_0.pddl beside this trajectory)";
  }

  /* --- the map ------------------------------------------------------------------------------------ */
  var SVG = "http://www.w3.org/2000/svg";
  var agent = null;
  function svg(name, attrs, parent) {
    var el = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (k) { el.setAttribute(k, attrs[k]); });
    parent.appendChild(el);
    return el;
  }
  function heading(x, y, rotation, length) {
    var a = rotation * Math.PI / 180;
    return [x + Math.sin(a) * length, y - Math.cos(a) * length];
  }
  function map() {
    if (!T.map) {
      byId("map-wrap").hidden = true;
      byId("map-note").textContent = "No map: the room " + T.row.floor_plan + " is not known here (import ALFRED's rooms).";
      return;
    }
    var m = T.map;
    byId("map").src = m.src;
    var overlay = byId("map-overlay");
    overlay.setAttribute("viewBox", "0 0 " + m.width + " " + m.height);
    svg("polyline", { points: m.walk.map(function (p) { return p[0] + "," + p[1]; }).join(" "), fill: "none",
      stroke: "#1f5fbf", "stroke-width": 4, "stroke-opacity": 0.55, "stroke-linejoin": "round" }, overlay);
    m.interactions.forEach(function (p) {
      var c = svg("circle", { cx: p[0], cy: p[1], r: 9, fill: "#f28e2b", stroke: "#000", "stroke-width": 1.5, "class": "interaction" }, overlay);
      var tip = heading(p[0], p[1], p[2], 18);
      svg("line", { x1: p[0], y1: p[1], x2: tip[0], y2: tip[1], stroke: "#000", "stroke-width": 2 }, overlay);
      svg("title", {}, c).textContent = "low action " + (p[3] + 1) + ": " + T.lows[p[3]].label;
    });
    agent = svg("g", { id: "agent" }, overlay);
    svg("circle", { r: 11, fill: "#d62728", stroke: "#fff", "stroke-width": 3 }, agent);
    svg("line", { x1: 0, y1: 0, x2: 0, y2: -24, stroke: "#d62728", "stroke-width": 5 }, agent);
    byId("map-note").textContent = "blue: the walked path; orange: where the agent interacted; red: the agent now.";
  }

  /* --- masks -------------------------------------------------------------------------------------- */
  function maskImage(low) {
    if (maskCache[low] !== undefined) { return maskCache[low]; }
    var runs = (T.lows[low] || {}).mask;
    if (!runs) { maskCache[low] = null; return null; }
    var on = new Uint8Array(300 * 300);
    runs.forEach(function (r) { on.fill(1, r[0], Math.min(r[0] + r[1], on.length)); });
    var canvas = byId("mask-canvas");
    var image = canvas.getContext("2d").createImageData(300, 300);
    for (var p = 0; p < on.length; p++) {
      if (!on[p]) { continue; }
      var x = p % 300, y = (p - x) / 300;
      var edge = x === 0 || x === 299 || y === 0 || y === 299 || !on[p - 1] || !on[p + 1] || !on[p - 300] || !on[p + 300];
      image.data[4 * p] = 255; image.data[4 * p + 1] = 235; image.data[4 * p + 2] = 0;
      image.data[4 * p + 3] = edge ? 255 : 90;
    }
    maskCache[low] = image;
    return image;
  }
  function drawMask(i) {
    var canvas = byId("mask-canvas");
    var ctx = canvas.getContext("2d");
    ctx.clearRect(0, 0, 300, 300);
    canvas.dataset.mask = "";
    if (!byId("masks-toggle").checked || !frames[i][3]) { return; }
    var image = maskImage(frames[i][1]);
    if (image) { ctx.putImageData(image, 0, 0); canvas.dataset.mask = String(frames[i][1]); }
  }

  /* --- showing a frame ---------------------------------------------------------------------------- */
  function show(i) {
    i = Math.max(0, Math.min(count - 1, Number(i) || 0));
    current = i;
    var f = frames[i];
    var low = f[1], high = Math.max(0, Math.min(T.subgoals.length - 1, f[2]));
    if (kinds.rgb) {
      byId("frame-rgb").src = src("rgb", i);
      if (kinds.depth) { byId("frame-depth").src = src("depth", i); }
      if (kinds.seg) { byId("frame-seg").src = src("seg", i); }
      drawMask(i);
    }
    document.body.dataset.frame = String(i);
    document.body.dataset.subgoal = String(high);
    byId("scrub").value = String(i);
    byId("frame-no").textContent = "frame " + (i + 1) + " / " + count;
    byId("instruction").textContent = (high + 1) + "/" + T.subgoals.length + "  " + T.subgoals[high].instruction;
    var lowText = T.lows[low] ? "action " + (low + 1) + "/" + T.lows.length + "  " + T.lows[low].label : "";
    byId("low-action").textContent = lowText + (f[3] ? "" : "  (after)");
    Array.prototype.forEach.call(document.querySelectorAll("#timeline .seg, #subgoals li"), function (el) {
      el.classList.toggle("current", Number(el.dataset.subgoal) === high);
    });
    var marker = document.querySelector("#timeline .marker");
    if (marker) { marker.style.left = ((i + 0.5) / count * 100) + "%"; }
    if (agent) {
      var at = T.map.at[i];
      agent.setAttribute("transform", "translate(" + at[0] + " " + at[1] + ") rotate(" + at[2] + ")");
    }
    if (timer && kinds.rgb) {  /* keep the next frames coming while playing */
      for (var k = 1; k <= 3 && i + k < count; k++) { new Image().src = src("rgb", i + k); }
    }
  }

  function play() {
    if (timer) { stop(); return; }
    if (current >= count - 1) { show(0); }
    var fps = Math.max(1, Math.min(30, Number(byId("speed").value) || 5));
    timer = setInterval(function () {
      if (current >= count - 1) { stop(); return; }
      show(current + 1);
    }, 1000 / fps);
    byId("play").textContent = "pause";
    document.body.dataset.playing = "1";
  }
  function stop() {
    clearInterval(timer);
    timer = null;
    byId("play").textContent = "play";
    document.body.dataset.playing = "";
  }

  function controls() {
    var scrub = byId("scrub");
    scrub.max = String(Math.max(0, count - 1));
    scrub.addEventListener("input", function () { show(scrub.value); });
    byId("play").addEventListener("click", play);
    byId("prev").addEventListener("click", function () { stop(); show(current - 1); });
    byId("next").addEventListener("click", function () { stop(); show(current + 1); });
    byId("masks-toggle").addEventListener("change", function () { drawMask(current); });
    byId("speed").addEventListener("change", function () { if (timer) { stop(); play(); } });
    document.addEventListener("keydown", function (e) {
      var tag = (e.target && e.target.tagName) || "";
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") { return; }
      if (e.key === "ArrowRight") { stop(); show(current + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { stop(); show(current - 1); e.preventDefault(); }
      else if (e.key === " ") { play(); e.preventDefault(); }
    });
  }

  function panels() {
    if (!kinds.rgb) {
      ["rgb-panel", "depth-panel", "seg-panel"].forEach(function (id) { byId(id).hidden = true; });
      byId("no-frames").hidden = false;
      byId("masks-toggle").disabled = true;
      return;
    }
    byId("depth-panel").hidden = !kinds.depth;
    byId("seg-panel").hidden = !kinds.seg;
  }

  header();
  panels();
  timeline();
  subgoalList();
  annotations();
  plan();
  map();
  controls();
  show(0);
})();
