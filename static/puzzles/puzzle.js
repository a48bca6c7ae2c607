// A puzzle page: click a space to answer, hints one step at a time, the full solution.
// Plain script, no build step. The answer and the steps are fetched only when a hint or the
// solution is asked for (GET ...?reveal=true); a click only asks the server about that space.
(function () {
  "use strict";
  var root = document.querySelector(".puzzle-play");
  if (!root) return;
  var code = root.dataset.code;
  var lang = root.dataset.lang || "en";
  var t = JSON.parse(document.getElementById("puzzle-strings").textContent);
  var api = "/api/tobago/puzzles/" + encodeURIComponent(code);
  var feedback = document.getElementById("feedback");
  var hintsList = document.getElementById("hints");
  var hintButton = document.getElementById("hint");
  var solutionButton = document.getElementById("solution");
  var revealed = null;   // the reveal=true response, once fetched
  var shown = 0;         // hint steps shown so far
  var solved = false;

  function fmt(s, vars) {
    return s.replace(/\{(\w+)\}/g, function (_, k) { return k in vars ? vars[k] : "{" + k + "}"; });
  }
  function hexAt(q, r) {
    return root.querySelector('.hexes polygon.hex[data-q="' + q + '"][data-r="' + r + '"]');
  }
  // The space a text names is marked on the map: an outline drawn over every hex (a hex's own
  // stroke hides under its neighbours), one at a time, the last one named.
  function markNamed(q, r) {
    var svg = root.querySelector(".map svg");
    var poly = hexAt(q, r);
    Array.prototype.forEach.call(root.querySelectorAll(".named-mark"), function (el) { el.remove(); });
    if (!svg || !poly) return;
    ["named-mark named-outer", "named-mark named-inner"].forEach(function (cls) {
      var mark = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
      mark.setAttribute("points", poly.getAttribute("points"));
      mark.setAttribute("class", cls);
      mark.setAttribute("data-q", q);
      mark.setAttribute("data-r", r);
      mark.setAttribute("aria-hidden", "true");
      svg.appendChild(mark);
    });
  }
  function say(text, kind) {
    feedback.textContent = text;
    feedback.className = "feedback " + (kind || "");
  }
  // the server's message is English: a Chinese page says only that something went wrong
  function fail(err) { say(lang === "zh" ? t.error_generic : fmt(t.error, { message: err.message || String(err) }), "error"); }

  function json(resp) {
    return resp.json().then(function (body) {
      if (!resp.ok) throw new Error(body.error ? body.error.message : resp.statusText);
      return body;
    });
  }

  function pick(poly) {
    var q = Number(poly.dataset.q), r = Number(poly.dataset.r);
    fetch(api + "/check", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ space: [q, r], lang: lang })
    }).then(json).then(function (res) {
      markNamed(q, r);
      if (res.correct) {
        poly.classList.add("picked-right");
        solved = true;
        say(res.why, "right");
        var next = document.getElementById("next-puzzle");
        if (next) { next.classList.remove("secondary"); next.focus(); }
      } else {
        poly.classList.add("picked-wrong");
        say(t.wrong + " " + res.why, "wrong");
      }
    }).catch(fail);
  }

  var hexes = root.querySelectorAll(".hexes polygon.hex");
  Array.prototype.forEach.call(hexes, function (poly) {
    poly.setAttribute("tabindex", "0");
    poly.setAttribute("role", "button");
    var title = poly.querySelector("title");
    if (title) poly.setAttribute("aria-label", title.textContent);
    poly.addEventListener("click", function () { pick(poly); });
    poly.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(poly); }
    });
  });

  function reveal() {
    if (revealed) return Promise.resolve(revealed);
    return fetch(api + "?reveal=true").then(json).then(function (body) {
      revealed = body;
      return body;
    });
  }

  function showStep(i) {
    var step = revealed.steps[i];
    var li = document.createElement("li");
    li.className = "hint-step";
    li.textContent = step.text[lang];
    if (step.remaining === 1) namesAnswer(li);
    hintsList.appendChild(li);
    step.removed.forEach(function (qr) {
      var poly = hexAt(qr[0], qr[1]);
      if (poly) poly.classList.add("out");
    });
    var clue = root.querySelector('#clues li[data-clue="' + step.clue + '"]');
    if (clue) clue.classList.add("used");
  }

  // a line that names the answer: the answer is marked, and again on hovering or focusing it
  function namesAnswer(li) {
    var a = revealed.answer;
    li.dataset.q = a[0];
    li.dataset.r = a[1];
    li.tabIndex = 0;
    var mark = function () { markNamed(a[0], a[1]); };
    li.addEventListener("mouseenter", mark);
    li.addEventListener("focus", mark);
    mark();
  }

  function showAnswer() {
    var a = revealed.answer;
    var poly = hexAt(a[0], a[1]);
    if (poly) poly.classList.add("answer");
    var li = document.createElement("li");
    li.className = "hint-step conclusion";
    li.textContent = revealed.conclusion[lang];
    namesAnswer(li);
    hintsList.appendChild(li);
    hintButton.disabled = true;
  }

  hintButton.addEventListener("click", function () {
    reveal().then(function () {
      if (shown < revealed.steps.length) {
        showStep(shown);
        shown += 1;
        if (shown === revealed.steps.length) showAnswer();
      } else {
        say(t.no_more_hints, "");
      }
    }).catch(fail);
  });

  solutionButton.addEventListener("click", function () {
    reveal().then(function () {
      if (!hintsList.dataset.intro) {
        var intro = document.createElement("p");
        intro.className = "hint-intro";
        intro.textContent = revealed.intro[lang];
        hintsList.parentNode.insertBefore(intro, hintsList);
        hintsList.dataset.intro = "1";
      }
      var hadAnswer = shown === revealed.steps.length;
      while (shown < revealed.steps.length) { showStep(shown); shown += 1; }
      if (!hadAnswer) showAnswer();
      solutionButton.disabled = true;
    }).catch(fail);
  });
})();
