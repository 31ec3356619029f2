package dev.kairos.mq.executor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JobLogTest {

  @Test
  void keepsTheMessageFirstThenTheLines() {
    JobLog log = new JobLog("job:1", "h");
    log.info("step {} of {}", 1, 2);
    log.warn("slow");
    log.setMessage("done");
    assertThat(log.text()).isEqualTo("done\nINFO step 1 of 2\nWARN slow");
  }

  @Test
  void isBoundedAndCountsWhatItDropped() {
    JobLog log = new JobLog("job:1", "h");
    for (int i = 0; i < JobLog.MAX_LINES + 30; i++) {
      log.info("line {}", i);
    }
    String text = log.text();
    assertThat(text.lines().filter(l -> l.startsWith("INFO")).count()).isEqualTo(JobLog.MAX_LINES);
    assertThat(text).endsWith("... 30 more lines");

    JobLog big = new JobLog("job:2", "h");
    big.info("x".repeat(JobLog.MAX_CHARS));
    big.info("small");
    assertThat(big.text()).isEqualTo("INFO small\n... 1 more lines");
  }
}
