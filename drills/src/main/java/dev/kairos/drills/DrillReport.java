package dev.kairos.drills;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYDotRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * What one drill leaves for an operator under {@code <dir>/<drill>/}: {@code report.md} (the
 * checker's table and the fault's times), {@code lateness.png} (start lateness of every fire of the
 * window by its fire time, the fault's start and end marked) and {@code starts.csv} (the same
 * points). Written before the drill asserts, so a failed drill leaves its report too.
 *
 * @param name the drill's name, e.g. {@code redis-restart}
 * @param windowFromMs first fire time of the window
 * @param faultFromMs when the fault began
 * @param faultToMs when it ended (the component came back)
 * @param windowToMs end of the window
 * @param firstStartMs trigger id → first start, of every started fire of the window
 * @param expected fires the schedule says were due in the window
 * @param missed expected fires with no start
 * @param early fires started before their time
 * @param duplicates trigger ids started more than once
 * @param claimedNotRun start claims whose handler never ran
 */
public record DrillReport(
    String name,
    long windowFromMs,
    long faultFromMs,
    long faultToMs,
    long windowToMs,
    Map<String, Long> firstStartMs,
    int expected,
    int missed,
    int early,
    int duplicates,
    int claimedNotRun) {

  /** Whether the drill's promise held: every fire started once, none early, none left claimed. */
  public boolean passed() {
    return missed == 0 && early == 0 && duplicates == 0 && claimedNotRun == 0;
  }

  /** Writes the three files under {@code dir/name}; returns that directory. */
  public Path write(Path dir) {
    Path out = dir.resolve(name);
    System.setProperty("java.awt.headless", "true"); // drills run on servers without a display
    try {
      Files.createDirectories(out);
      List<long[]> points = points();
      Files.writeString(out.resolve("starts.csv"), csv(points), StandardCharsets.UTF_8);
      Files.writeString(out.resolve("report.md"), markdown(points), StandardCharsets.UTF_8);
      ChartUtils.saveChartAsPNG(out.resolve("lateness.png").toFile(), chart(points), 1000, 500);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the drill report under " + out, e);
    }
    return out;
  }

  /** {fire ms, lateness ms} per started fire, by fire time. */
  private List<long[]> points() {
    TreeMap<String, long[]> byId = new TreeMap<>();
    firstStartMs.forEach(
        (id, start) -> {
          long fire = StartLedger.fireMs(id);
          byId.put(id, new long[] {fire, start - fire});
        });
    List<long[]> points = new ArrayList<>(byId.values());
    points.sort((a, b) -> Long.compare(a[0], b[0]));
    return points;
  }

  private static String csv(List<long[]> points) {
    StringBuilder csv = new StringBuilder("fire_ms,lateness_ms\n");
    for (long[] p : points) {
      csv.append(p[0]).append(',').append(p[1]).append('\n');
    }
    return csv.toString();
  }

  String markdown(List<long[]> points) {
    Lateness before = lateness(points, windowFromMs, faultFromMs);
    Lateness during = lateness(points, faultFromMs, windowToMs);
    return "# Drill `"
        + name
        + "`: "
        + (passed() ? "passed" : "FAILED")
        + "\n\n"
        + "| window | fault began | fault ended | window end | fault length |\n"
        + "|---|---|---|---|---|\n"
        + "| "
        + Instant.ofEpochMilli(windowFromMs)
        + " | "
        + Instant.ofEpochMilli(faultFromMs)
        + " | "
        + Instant.ofEpochMilli(faultToMs)
        + " | "
        + Instant.ofEpochMilli(windowToMs)
        + " | "
        + (faultToMs - faultFromMs)
        + " ms |\n\n"
        + "| expected | started | missed | early | duplicate | claimed, not run |"
        + " lateness before (p50 / p99 / max) | during and after (p50 / p99 / max) |\n"
        + "|---|---|---|---|---|---|---|---|\n"
        + "| "
        + expected
        + " | "
        + firstStartMs.size()
        + " | "
        + missed
        + " | "
        + early
        + " | "
        + duplicates
        + " | "
        + claimedNotRun
        + " | "
        + before.p50()
        + " / "
        + before.p99()
        + " / "
        + before.max()
        + " ms | "
        + during.p50()
        + " / "
        + during.p99()
        + " / "
        + during.max()
        + " ms |\n\n"
        + "![start lateness](lateness.png)\n\n"
        + "Missed: an expected fire with no start once the backlog drained. Early: first start before"
        + " the scheduled time. Lateness: first start - scheduled fire time. Every point is in"
        + " `starts.csv`.\n";
  }

  private static Lateness lateness(List<long[]> points, long fromMs, long toMs) {
    List<Long> values = new ArrayList<>();
    for (long[] p : points) {
      if (p[0] >= fromMs && p[0] < toMs) {
        values.add(p[1]);
      }
    }
    return Lateness.of(values);
  }

  private JFreeChart chart(List<long[]> points) {
    XYSeries series = new XYSeries("first start - fire time");
    for (long[] p : points) {
      series.add((p[0] - windowFromMs) / 1000.0, p[1]);
    }
    JFreeChart chart =
        ChartFactory.createScatterPlot(
            "Drill " + name + ": start lateness by fire time",
            "fire time, s after the window opened",
            "lateness, ms",
            new XYSeriesCollection(series),
            PlotOrientation.VERTICAL,
            false,
            false,
            false);
    XYPlot plot = chart.getXYPlot();
    XYDotRenderer dots = new XYDotRenderer();
    dots.setDotWidth(2);
    dots.setDotHeight(2);
    dots.setSeriesPaint(0, new Color(0x1f, 0x77, 0xb4));
    plot.setRenderer(dots);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.addDomainMarker(marker("fault", faultFromMs));
    plot.addDomainMarker(marker("back", faultToMs));
    return chart;
  }

  private ValueMarker marker(String label, long ms) {
    ValueMarker marker = new ValueMarker((ms - windowFromMs) / 1000.0);
    marker.setPaint(Color.RED);
    marker.setStroke(new BasicStroke(1.5f));
    marker.setLabel(label);
    return marker;
  }
}
