// Charts where people look rather than read (issue 19): every <canvas data-chart> is drawn
// with the vendored Chart.js from the JSON in its attribute, also when a page swaps in a
// fresh fragment (the projector, the review queue), so no other script needs to know.
(function () {
  "use strict";
  if (!window.Chart) return;
  var COLOURS = ["#ffd33d", "#56d364", "#58a6ff", "#ff7b72", "#d2a8ff", "#ffa657",
                 "#79c0ff", "#f778ba", "#a5d6ff", "#7ee787", "#e3b341", "#ffb1ac"];
  var VERDICT_COLOURS = {correct: "#1a7f37", partial: "#9a6700", wrong: "#cf222e",
                         review: "#0969da"};
  function styleOf(canvas) {
    var dark = canvas.dataset.theme === "dark";
    return {text: dark ? "#f5f5f5" : "#1f2328", grid: dark ? "#30363d" : "#d0d7de",
            size: parseFloat(canvas.dataset.fontSize || "13")};
  }
  function standings(canvas, data) {
    var look = styleOf(canvas);
    return {
      type: "line",
      data: {
        labels: data.labels,
        datasets: data.series.map(function (s, i) {
          var colour = COLOURS[i % COLOURS.length];
          return {label: s.name, data: s.points, borderColor: colour, backgroundColor: colour,
                  borderWidth: 3, pointRadius: 4, tension: 0.15};
        })
      },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false,
        plugins: {legend: {position: "right", labels: {color: look.text, font: {size: look.size}}}},
        scales: {
          x: {ticks: {color: look.text, font: {size: look.size}}, grid: {color: look.grid}},
          y: {beginAtZero: true, ticks: {color: look.text, font: {size: look.size}},
              grid: {color: look.grid}}
        }
      }
    };
  }
  function answers(canvas, data) {
    var look = styleOf(canvas);
    var words = JSON.parse(canvas.dataset.words || "{}");
    var bars = data.bars.slice();
    if (data.rest) bars.push({text: words.other || "…", teams: data.rest, verdict: ""});
    return {
      type: "bar",
      data: {
        labels: bars.map(function (b) { return b.text; }),
        datasets: [{
          label: words.teams || "",
          data: bars.map(function (b) { return b.teams; }),
          backgroundColor: bars.map(function (b) { return VERDICT_COLOURS[b.verdict] || "#6e7781"; })
        }]
      },
      options: {
        indexAxis: "y", animation: false, responsive: true, maintainAspectRatio: false,
        plugins: {
          legend: {display: false},
          tooltip: {callbacks: {afterLabel: function (item) {
            return words[bars[item.dataIndex].verdict] || "";
          }}}
        },
        scales: {x: {beginAtZero: true, ticks: {precision: 0, color: look.text}},
                 y: {ticks: {color: look.text}}}
      }
    };
  }
  function draw(root) {
    var canvases = (root || document).querySelectorAll("canvas[data-chart]");
    Array.prototype.forEach.call(canvases, function (canvas) {
      if (canvas.dataset.drawn) return;
      var data = JSON.parse(canvas.dataset.chart);
      var config = data.type === "answers" ? answers(canvas, data) : standings(canvas, data);
      canvas.chart = new window.Chart(canvas, config);
      canvas.dataset.drawn = "1";
    });
  }
  draw(document);
  new MutationObserver(function () { draw(document); })
    .observe(document.body, {childList: true, subtree: true});
})();
