// Draws the dashboard's charts with uPlot from /console/dashboard/series and redraws them every
// 5 s. Loaded as a file (the console's CSP allows no inline script).
(function () {
  "use strict";
  var script = document.getElementById("dashboard-script");
  var url = script.getAttribute("data-series");
  var charts = {};

  function options(title, series, width) {
    return {
      title: "",
      width: width,
      height: 200,
      series: [{}].concat(series),
      axes: [{}, {}]
    };
  }

  function draw(id, series, data) {
    var el = document.getElementById(id);
    if (!el) { return; }
    if (!charts[id]) {
      charts[id] = new uPlot(options(id, series, Math.max(300, el.clientWidth)), data, el);
    } else {
      charts[id].setData(data);
    }
  }

  function refresh() {
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (s) {
        if (!s || typeof uPlot === "undefined") { return; }
        draw("chart-fires", [{ label: "fires/s", stroke: "#1f5fbf" }], [s.t, s.firesPerSecond]);
        draw("chart-lateness",
          // spanGaps: an interval in which no trigger ended has no start lateness; join across it.
          [{ label: "start p50 ms", stroke: "#1e7a3c", spanGaps: true },
           { label: "start p99 ms", stroke: "#b3261e", spanGaps: true },
           { label: "dispatch p99 ms", stroke: "#8a8a8a", dash: [4, 4] }],
          [s.t, s.startP50, s.startP99, s.dispatchP99]);
        draw("chart-failures",
          [{ label: "misfires", stroke: "#c48a00" }, { label: "failures", stroke: "#b3261e" }],
          [s.t, s.misfires, s.failures]);
      })
      .catch(function () { /* the next refresh tries again */ });
  }

  window.addEventListener("load", function () {
    refresh();
    setInterval(refresh, 5000);
  });
})();
