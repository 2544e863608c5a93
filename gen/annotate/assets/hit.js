// Task and vote pages of `alfred-gen annotate`: a frame player with subgoal boundaries and a form.
// Everything shown comes from the page's JSON block and is inserted as text (textContent), never
// as markup: annotations on vote pages are other workers' words.
"use strict";

(function () {
  const data = JSON.parse(document.getElementById("hit-data").textContent);
  const params = new URLSearchParams(window.location.search);
  const assignmentId = params.get("assignmentId") || "";
  const submitTo = params.get("turkSubmitTo") || "";
  const preview = assignmentId === "ASSIGNMENT_ID_NOT_AVAILABLE";

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function player(demo, root) {
    const box = el("div", { class: "player" });
    const img = el("img", { class: "frame", alt: "frame of the demonstration" });
    const slider = el("input", { type: "range", min: "0", max: String(demo.frames.length - 1), value: "0" });
    const caption = el("div", { class: "caption" });
    const play = el("button", { type: "button" }, "play");
    let timer = null;
    function show(i) {
      slider.value = String(i);
      img.src = demo.frames[i];
      const step = demo.frame_subgoal[i];
      caption.textContent = "frame " + (i + 1) + "/" + demo.frames.length + " - subgoal " + (step + 1) + ": " +
        demo.subgoals[step];
      for (const [n, item] of box.querySelectorAll("li").entries()) item.classList.toggle("now", n === step);
    }
    slider.addEventListener("input", () => show(Number(slider.value)));
    play.addEventListener("click", () => {
      if (timer) { clearInterval(timer); timer = null; play.textContent = "play"; return; }
      play.textContent = "pause";
      timer = setInterval(() => {
        const next = (Number(slider.value) + 1) % demo.frames.length;
        show(next);
        if (next === demo.frames.length - 1) { clearInterval(timer); timer = null; play.textContent = "play"; }
      }, 200);
    });
    const list = el("ol", { class: "subgoals" });
    demo.subgoals.forEach((name, n) => {
      const item = el("li", {}, name + " (frames " + (demo.bounds[n][0] + 1) + "-" + (demo.bounds[n][1] + 1) + ")");
      item.addEventListener("click", () => show(demo.bounds[n][0]));
      list.appendChild(item);
    });
    box.append(img, el("br"), play, slider, caption, list);
    root.appendChild(box);
    show(0);
  }

  function answerLine(answer) {
    const out = document.getElementById("answers");
    out.textContent += JSON.stringify(answer) + "\n";
    const blob = new Blob([out.textContent], { type: "application/jsonl" });
    const link = document.getElementById("download");
    link.href = URL.createObjectURL(blob);
    link.hidden = false;
  }

  function workerId() {
    return params.get("workerId") || document.getElementById("worker").value.trim();
  }

  function externalSubmit(answers) {
    if (!assignmentId || preview || !submitTo) return;
    const form = el("form", { method: "POST", action: submitTo.replace(/\/$/, "") + "/mturk/externalSubmit" });
    form.appendChild(el("input", { type: "hidden", name: "assignmentId", value: assignmentId }));
    const field = el("input", { type: "hidden", name: "answers" });
    field.value = JSON.stringify(answers);
    form.appendChild(field);
    document.body.appendChild(form);
    form.submit();
  }

  const root = document.getElementById("demos");
  const submit = document.getElementById("submit");
  if (preview) submit.disabled = true;
  const forms = [];
  data.demos.forEach((demo, d) => {
    const section = el("section", { class: "demo" });
    section.appendChild(el("h2", {}, "Demonstration " + (d + 1) + " of " + data.demos.length));
    player(demo, section);
    const form = el("div", { class: "form" });
    if (data.kind === "task") {
      form.appendChild(el("label", { for: "goal-" + d }, "Goal: what is the robot's task, in one sentence?"));
      form.appendChild(el("input", { type: "text", id: "goal-" + d, class: "goal", maxlength: "300" }));
      demo.subgoals.forEach((name, n) => {
        form.appendChild(el("label", { for: "step-" + d + "-" + n }, "Step " + (n + 1) + " (" + name + "): what should the robot do?"));
        form.appendChild(el("input", { type: "text", id: "step-" + d + "-" + n, class: "step", maxlength: "300" }));
      });
    } else {
      form.appendChild(el("p", {}, "Tick every description that fits what the robot does."));
      demo.annotations.forEach((ann, a) => {
        const item = el("div", { class: "candidate" });
        const box = el("input", { type: "checkbox", id: "vote-" + d + "-" + a });
        item.appendChild(box);
        const words = el("div", { class: "words" });
        words.appendChild(el("p", { class: "goal" }, ann.task_desc));
        const lines = el("ol");
        ann.high_descs.forEach((line) => lines.appendChild(el("li", {}, line)));
        words.appendChild(lines);
        item.appendChild(words);
        form.appendChild(item);
      });
    }
    section.appendChild(form);
    root.appendChild(section);
    forms.push(form);
  });

  submit.addEventListener("click", () => {
    const worker = workerId();
    const status = document.getElementById("status");
    if (!worker) { status.textContent = "Please enter your worker id."; return; }
    const answers = [];
    data.demos.forEach((demo, d) => {
      const base = { hit: data.hit, demo: demo.key, task_id: demo.task_id, worker_id: worker,
                     assignment_id: (assignmentId && !preview ? assignmentId : data.hit + "-" + worker) + "-" + d };
      if (data.kind === "task") {
        const steps = demo.subgoals.map((_, n) => document.getElementById("step-" + d + "-" + n).value.trim());
        answers.push({ ...base, kind: "annotation", task_desc: document.getElementById("goal-" + d).value.trim(),
                       high_descs: steps });
      } else {
        const votes = {};
        demo.annotations.forEach((ann, a) => {
          votes[ann.assignment_id] = document.getElementById("vote-" + d + "-" + a).checked ? 1 : 0;
        });
        answers.push({ ...base, kind: "vote", votes: votes });
      }
    });
    const empty = answers.some((a) => a.kind === "annotation" && (!a.task_desc || a.high_descs.some((s) => !s)));
    if (empty) { status.textContent = "Please fill in the goal and every step."; return; }
    answers.forEach(answerLine);
    status.textContent = "Submitted: " + answers.length + " answer(s). Thank you.";
    submit.disabled = true;
    externalSubmit(answers);
  });
})();
