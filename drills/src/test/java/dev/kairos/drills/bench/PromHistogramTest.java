package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class PromHistogramTest {

  private static final String NAME = "kairos_scan_pass_duration_seconds";

  private static String scrape(double b100, double b250, double b500, double inf, double sum) {
    return "# HELP kairos_scan_pass_duration_seconds one completed scan pass\n"
        + "# TYPE kairos_scan_pass_duration_seconds histogram\n"
        + NAME
        + "_bucket{application=\"node-1\",le=\"0.1\"} "
        + b100
        + "\n"
        + NAME
        + "_bucket{application=\"node-1\",le=\"0.25\"} "
        + b250
        + "\n"
        + NAME
        + "_bucket{application=\"node-1\",le=\"0.5\",} "
        + b500
        + "\n"
        + NAME
        + "_bucket{application=\"node-1\",le=\"+Inf\"} "
        + inf
        + "\n"
        + NAME
        + "_count{application=\"node-1\"} "
        + inf
        + "\n"
        + NAME
        + "_sum{application=\"node-1\"} "
        + sum
        + "\n"
        + NAME
        + "_max{application=\"node-1\"} 0.4\n"
        + "kairos_scan_passes_total{application=\"node-1\"} "
        + inf
        + "\n";
  }

  @Test
  void theDifferenceOfTwoScrapesIsWhatWasRecordedBetween() {
    PromHistogram before = PromHistogram.parse(scrape(5, 5, 5, 5, 0.25), NAME);
    PromHistogram after = PromHistogram.parse(scrape(5, 55, 105, 105, 30.25), NAME);
    PromHistogram window = after.minus(before);
    assertThat(window.count()).isEqualTo(100);
    assertThat(window.meanMillis()).isCloseTo(300, within(1e-9));
    // 50 in (0.1, 0.25], 50 in (0.25, 0.5]: the median at the top of the first bucket.
    assertThat(window.quantileMillis(0.5)).isCloseTo(250, within(1e-9));
    assertThat(window.quantileMillis(0.99)).isCloseTo(250 + 250 * 0.98, within(1e-9));
    assertThat(window.quantileMillis(0.25)).isCloseTo(100 + 150 * 0.5, within(1e-9));
  }

  @Test
  void noSamplesIsNaN() {
    PromHistogram same = PromHistogram.parse(scrape(1, 2, 3, 3, 1), NAME);
    assertThat(same.minus(same).quantileMillis(0.5)).isNaN();
    assertThat(PromHistogram.parse("", NAME).meanMillis()).isNaN();
  }

  @Test
  void aQuantileInTheOverflowBucketIsTheLargestBound() {
    PromHistogram h = PromHistogram.parse(scrape(0, 0, 0, 10, 60), NAME);
    assertThat(h.quantileMillis(0.5)).isEqualTo(500);
  }
}
