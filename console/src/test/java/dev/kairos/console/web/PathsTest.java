package dev.kairos.console.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PathsTest {

  @Test
  void aTriggerIdKeepsItsSlashesAndEncodesTheRest() {
    assertThat(Paths.trigger("job:1767225600000#0/2"))
        .isEqualTo("/api/v1/triggers/job:1767225600000%230/2");
    assertThat(Paths.trigger("job:1/r1")).isEqualTo("/api/v1/triggers/job:1/r1");
    assertThat(Paths.trigger("../x?y")).isEqualTo("/api/v1/triggers/../x%3Fy");
  }

  @Test
  void aJobIdIsOneSegment() {
    assertThat(Paths.job("a/b c")).isEqualTo("/api/v1/jobs/a%2Fb%20c");
  }
}
