package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PostmasterTest {

  // PostgreSQL 17's postmaster.pid: pid, data dir, start time, port, socket dir, listen address,
  // shared memory key, status.
  private static final String FILE =
      "48213\n/tmp/infra/postgres/data\n1795651200\n41234\n/tmp\n127.0.0.1\n  1234567  98304\nready\n";

  @Test
  void thePidIsTheFirstLineOfTheFileOfThatPort() {
    assertThat(Postmaster.pid(FILE, 41234)).isEqualTo(48213L);
  }

  @Test
  void aFileOfAnotherPortIsRefused() {
    assertThatThrownBy(() -> Postmaster.pid(FILE, 5432))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("41234");
  }

  @Test
  void aTruncatedFileIsRefused() {
    assertThatThrownBy(() -> Postmaster.pid("48213\n/tmp\n", 41234))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
