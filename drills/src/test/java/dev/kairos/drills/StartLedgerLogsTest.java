package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.cluster.process.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** StartLedger reads a start log incrementally: only complete lines, each once. */
class StartLedgerLogsTest {

  @TempDir Path dir;

  @Test
  void readsWhatWasAppendedSinceTheLastReadAndOnlyCompleteLines() throws IOException {
    Path log = dir.resolve("exec-1.starts");
    DrillExecutor executor =
        new DrillExecutor(
            "exec-1-x",
            new ChildJvm("exec-1", "NoSuchMain", List.of(), List.of(), dir.resolve("exec-1.log")),
            log,
            dir.resolve("exec-1.stats"));
    assertThat(StartLedger.readLogs(List.of(executor))).isEmpty(); // no file yet

    append(log, "job-1:1000 1005 exec-1-x\njob-2:1000 1006 exec-1-x\njob-1:2000 20");
    assertThat(StartLedger.readLogs(List.of(executor)))
        .containsOnlyKeys("job-1:1000", "job-2:1000");

    append(log, "07 exec-1-x\njob-1:1000 2100 exec-1-x\n");
    var starts = StartLedger.readLogs(List.of(executor));
    assertThat(starts).containsOnlyKeys("job-1:1000", "job-2:1000", "job-1:2000");
    assertThat(starts.get("job-1:2000"))
        .containsExactly(new StartLedger.Start("job-1:2000", 2007, "exec-1-x"));
    assertThat(starts.get("job-1:1000"))
        .extracting(StartLedger.Start::startMs)
        .containsExactly(1005L, 2100L);
    assertThat(StartLedger.readLogs(List.of(executor), List.of("job-2:1000", "job-9:1000")))
        .containsOnlyKeys("job-2:1000");
  }

  private static void append(Path file, String text) throws IOException {
    Files.writeString(
        file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }
}
