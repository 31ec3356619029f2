package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ApiProbeTest {

  @Test
  void theMiddlePrefixNamesTheHundredJobsFromTheMiddleOn() {
    assertThat(ApiProbe.middlePrefix(10_000)).isEqualTo("scale-00050");
    assertThat(ApiProbe.middlePrefix(100_000)).isEqualTo("scale-00500");
    assertThat(ApiProbe.middlePrefix(1_000_000)).isEqualTo("scale-05000");
    assertThat(ApiProbe.middlePrefix(10_100)).isEqualTo("scale-00050");
    assertThat(ScaleMix.id(5_000)).startsWith(ApiProbe.middlePrefix(10_000));
  }

  @Test
  void theIdPrefixFilterNamesAHundredJobs() {
    assertThat(ScaleMix.id(1_200)).startsWith(ApiProbe.ID_PREFIX);
    assertThat(ScaleMix.id(1_299)).startsWith(ApiProbe.ID_PREFIX);
    assertThat(ScaleMix.id(1_199)).doesNotStartWith(ApiProbe.ID_PREFIX);
    assertThat(ScaleMix.id(1_300)).doesNotStartWith(ApiProbe.ID_PREFIX);
  }

  @Test
  void aCallPrintsOnOneLine() {
    ApiProbe.Call call =
        new ApiProbe.Call("list, first page", "/api/v1/jobs?size=50", 50, 0, 1.25, 3.5, 4, 20_000);
    assertThat(ApiProbe.line(call))
        .isEqualTo(
            "list, first page (/api/v1/jobs?size=50): 50 requests, 0 errors, p50 1.3 ms, p99 3.5"
                + " ms, max 4.0 ms, 20,000 B");
  }
}
