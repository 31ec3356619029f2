package dev.kairos.mq.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.log.LogLine;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunLogTest {

  private static TriggerLogSettings caps(int lines, int bytes, int lineChars) {
    return new TriggerLogSettings(
        true, lines, bytes, lineChars, Duration.ofMillis(250), 1_000, Duration.ofHours(1));
  }

  private static RunLog run(TriggerLogSettings caps) {
    return new RunLog("job-1:1000", "job-1", 1_000, caps);
  }

  @Test
  void aRunIsQueuedOnceUntilTheFlusherDrainsIt() {
    RunLog run = run(TriggerLogSettings.DEFAULTS);
    assertThat(run.add(1, "INFO", "a")).isTrue();
    assertThat(run.add(2, "INFO", "b")).isFalse();
    assertThat(run.drain()).extracting(LogLine::text).containsExactly("a", "b");
    assertThat(run.drain()).isEmpty();
    assertThat(run.add(3, "WARN", "c")).isTrue();
    assertThat(run.drain()).containsExactly(new LogLine(3, 3, "WARN", "c"));
  }

  @Test
  void sequenceNumbersRunOnAcrossDrains() {
    RunLog run = run(TriggerLogSettings.DEFAULTS);
    run.add(1, "INFO", "a");
    run.drain();
    run.add(1, "INFO", "b");
    assertThat(run.drain()).extracting(LogLine::seq).containsExactly(2L);
  }

  @Test
  void theLineCapKeepsOneMarkerAndCountsTheRest() {
    RunLog run = run(caps(3, 1_000, 100));
    for (int i = 1; i <= 10; i++) {
      run.add(i, "INFO", "line " + i);
    }
    List<LogLine> lines = run.drain();
    assertThat(lines).hasSize(4);
    assertThat(lines.subList(0, 3))
        .extracting(LogLine::text)
        .containsExactly("line 1", "line 2", "line 3");
    assertThat(lines.get(3).level()).isEqualTo("WARN");
    assertThat(lines.get(3).text()).contains("log truncated").contains("3 lines");
    assertThat(run.dropped()).isEqualTo(7);
    assertThat(run.add(11, "INFO", "more")).isFalse();
    assertThat(run.drain()).isEmpty();
  }

  @Test
  void theByteCapCountsUtf8Bytes() {
    RunLog run = run(caps(100, 10, 100));
    run.add(1, "INFO", "ééé"); // 6 bytes
    run.add(2, "INFO", "ab"); // 8
    run.add(3, "INFO", "abc"); // 11: over
    List<LogLine> lines = run.drain();
    assertThat(lines).extracting(LogLine::text).startsWith("ééé", "ab");
    assertThat(lines).hasSize(3);
    assertThat(lines.get(2).text()).contains("10 bytes");
  }

  @Test
  void aLongLineIsCutAndMarked() {
    RunLog run = run(caps(100, 10_000, 5));
    run.add(1, "INFO", "abcdefghij");
    assertThat(run.drain().get(0).text()).isEqualTo("abcde…");
  }

  @Test
  void utf8LengthCountsSurrogatePairsAsFourBytes() {
    assertThat(RunLog.utf8Length("a")).isEqualTo(1);
    assertThat(RunLog.utf8Length("é")).isEqualTo(2);
    assertThat(RunLog.utf8Length("€")).isEqualTo(3);
    assertThat(RunLog.utf8Length("😀")).isEqualTo(4);
  }

  @Test
  void drainIntoSendsOnlyWhenLinesArePendingAndRequeuesOnTheNextLine() {
    RunLog run = run(TriggerLogSettings.DEFAULTS);
    assertThat(run.<Integer>drainInto(List::size)).isNull();
    run.add(1, "INFO", "a");
    run.add(2, "INFO", "b");
    Integer sent = run.drainInto(List::size);
    assertThat(sent).isEqualTo(2);
    assertThat(run.<Integer>drainInto(List::size)).isNull();
    assertThat(run.add(3, "INFO", "c")).as("queued again after the drain").isTrue();
  }

  @Test
  void logLinesRoundTripThroughTheirStoredForms() {
    LogLine line = new LogLine(7, 1_700_000_000_000L, "ERROR", "a\tb\nc");
    assertThat(LogLine.decode(line.encode())).isEqualTo(line);
    assertThat(LogLine.decodeBody(7, line.encodeBody())).isEqualTo(line);
  }
}
