package dev.kairos.drills;

import java.util.Map;

/** Just enough of the Prometheus text format to sum one metric's samples by label. */
public final class PrometheusText {

  private PrometheusText() {}

  /** Sum of every sample of {@code name} in {@code text} whose labels include {@code labels}. */
  public static double sum(String text, String name, Map<String, String> labels) {
    double total = 0;
    for (String line : text.split("\n")) {
      if (line.startsWith("#") || !line.startsWith(name)) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      String series = line.substring(0, space);
      String metric = series.contains("{") ? series.substring(0, series.indexOf('{')) : series;
      if (!metric.equals(name)) {
        continue;
      }
      boolean matches =
          labels.entrySet().stream()
              .allMatch(e -> series.contains(e.getKey() + "=\"" + e.getValue() + "\""));
      if (matches) {
        total += Double.parseDouble(line.substring(space + 1));
      }
    }
    return total;
  }
}
