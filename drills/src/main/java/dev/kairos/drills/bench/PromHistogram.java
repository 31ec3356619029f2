package dev.kairos.drills.bench;

import java.util.Map;
import java.util.TreeMap;

/**
 * One Prometheus histogram (a Micrometer timer with {@code percentiles-histogram}) as a node's
 * {@code /actuator/prometheus} text shows it at one moment: cumulative bucket counts by upper bound
 * in seconds, the count and the sum. Two snapshots give the histogram of what was recorded between
 * them ({@link #minus}), whose quantiles are interpolated within a bucket as Prometheus' {@code
 * histogram_quantile} does. Series of the same name with other labels are summed.
 */
record PromHistogram(TreeMap<Double, Double> buckets, double count, double sumSeconds) {

  static final PromHistogram EMPTY = new PromHistogram(new TreeMap<>(), 0, 0);

  /**
   * The histogram {@code name} (e.g. {@code kairos_scan_pass_duration_seconds}) in {@code text}.
   */
  static PromHistogram parse(String text, String name) {
    TreeMap<Double, Double> buckets = new TreeMap<>();
    double count = 0;
    double sum = 0;
    for (String line : text.split("\n")) {
      if (line.startsWith("#") || !line.startsWith(name + "_")) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      String series = line.substring(0, space).trim();
      double value = Double.parseDouble(line.substring(space + 1).trim());
      String metric = series.contains("{") ? series.substring(0, series.indexOf('{')) : series;
      if (metric.equals(name + "_bucket")) {
        buckets.merge(le(series), value, Double::sum);
      } else if (metric.equals(name + "_count")) {
        count += value;
      } else if (metric.equals(name + "_sum")) {
        sum += value;
      }
    }
    return new PromHistogram(buckets, count, sum);
  }

  private static double le(String series) {
    int at = series.indexOf("le=\"");
    if (at < 0) {
      throw new IllegalArgumentException("bucket without le: " + series);
    }
    String bound = series.substring(at + 4, series.indexOf('"', at + 4));
    return bound.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(bound);
  }

  /** What was recorded after {@code earlier} and up to this snapshot. */
  PromHistogram minus(PromHistogram earlier) {
    TreeMap<Double, Double> delta = new TreeMap<>();
    buckets.forEach((le, n) -> delta.put(le, n - earlier.buckets.getOrDefault(le, 0.0)));
    return new PromHistogram(delta, count - earlier.count, sumSeconds - earlier.sumSeconds);
  }

  /** Mean in ms; NaN without samples. */
  double meanMillis() {
    return count <= 0 ? Double.NaN : sumSeconds * 1000 / count;
  }

  /**
   * The {@code q} quantile (0..1) in ms, interpolated linearly inside its bucket (from the bucket
   * below's bound; from 0 in the first); the largest finite bound when it falls in {@code +Inf};
   * NaN without samples.
   */
  double quantileMillis(double q) {
    if (count <= 0 || buckets.isEmpty()) {
      return Double.NaN;
    }
    double rank = q * count;
    double lowerBound = 0;
    double below = 0;
    for (Map.Entry<Double, Double> e : buckets.entrySet()) {
      double bound = e.getKey();
      double cumulative = e.getValue();
      if (cumulative >= rank) {
        if (Double.isInfinite(bound)) {
          return lowerBound * 1000;
        }
        double inBucket = cumulative - below;
        double fraction = inBucket <= 0 ? 1 : (rank - below) / inBucket;
        return (lowerBound + (bound - lowerBound) * fraction) * 1000;
      }
      lowerBound = bound;
      below = cumulative;
    }
    return lowerBound * 1000;
  }
}
