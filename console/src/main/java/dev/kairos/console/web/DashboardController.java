package dev.kairos.console.web;

import dev.kairos.console.api.ApiResponse;
import dev.kairos.console.api.NodeApi;
import dev.kairos.console.metrics.DashboardSample;
import dev.kairos.console.metrics.MeterTotals;
import dev.kairos.console.metrics.SampleSeries;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * The dashboard: this node's fire rate, start and dispatch lateness, misfires and failures from its
 * meters (sampled in memory for the charts), every app's live executors from the API, and the daily
 * report of the last 7 days from the PostgreSQL history.
 */
@Controller
class DashboardController {

  private final NodeApi api;
  private final SampleSeries series;

  DashboardController(NodeApi api, SampleSeries series) {
    this.api = api;
    this.series = series;
  }

  @GetMapping({"/console", "/console/"})
  String dashboard(Model model) {
    fill(model);
    // The daily report is read once per page view, not with the numbers panel every few seconds:
    // it comes from PostgreSQL and changes hourly (refreshed with the retention run).
    ApiResponse report = api.get("/api/v1/reports/daily");
    model.addAttribute("reportApps", report.ok() ? report.list("apps") : List.of());
    model.addAttribute("reportAll", report.ok() ? report.list("allJobs") : List.of());
    model.addAttribute("reportProblem", report.ok() ? null : report.problem());
    return "console/dashboard";
  }

  /** The numbers panel, refreshed by htmx every few seconds. */
  @GetMapping("/console/dashboard/numbers")
  String numbers(Model model) {
    fill(model);
    return "console/fragments :: numbers";
  }

  /**
   * The chart series as JSON for the dashboard's script (uPlot's column layout). A ResponseEntity,
   * not {@code @ResponseBody}: the node's OpenAPI document lists {@code @ResponseBody} methods, and
   * this is no part of the API.
   */
  @GetMapping(path = "/console/dashboard/series", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<Map<String, Object>> chartSeries() {
    List<DashboardSample> samples = series.samples();
    return ResponseEntity.ok(
        Map.of(
            "t",
            samples.stream().map(s -> s.atMs() / 1000.0).toList(),
            "firesPerSecond",
            samples.stream().map(DashboardSample::firesPerSecond).toList(),
            "startP50",
            samples.stream().map(s -> nullIfNaN(s.startP50Ms())).toList(),
            "startP99",
            samples.stream().map(s -> nullIfNaN(s.startP99Ms())).toList(),
            "dispatchP99",
            samples.stream().map(s -> nullIfNaN(s.latenessP99Ms())).toList(),
            "misfires",
            samples.stream().map(DashboardSample::misfires).toList(),
            "failures",
            samples.stream().map(DashboardSample::failures).toList()));
  }

  private void fill(Model model) {
    List<DashboardSample> samples = series.samples();
    model.addAttribute("latest", samples.isEmpty() ? null : samples.get(samples.size() - 1));
    // Start lateness is known only for intervals in which triggers ended: on a quiet cluster the
    // last interval may have none, so the panel shows the newest interval that had some.
    DashboardSample started = null;
    for (DashboardSample s : samples) {
      if (!Double.isNaN(s.startP50Ms())) {
        started = s;
      }
    }
    model.addAttribute("latestStart", started);
    MeterTotals totals = series.latestTotals();
    model.addAttribute("totals", totals);
    ApiResponse executors = api.get("/api/v1/executors");
    model.addAttribute("apps", executors.ok() ? executors.list("items") : List.of());
    model.addAttribute("problem", executors.ok() ? null : executors.problem());
  }

  private static Double nullIfNaN(double v) {
    return Double.isNaN(v) ? null : v;
  }
}
