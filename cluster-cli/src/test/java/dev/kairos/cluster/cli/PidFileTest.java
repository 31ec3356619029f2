package dev.kairos.cluster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PidFileTest {

  @Test
  void roundTripsThroughItsFile(@TempDir Path dir) {
    PidFile written = PidFile.of("node-1", ProcessRole.NODE, ProcessHandle.current(), 8080);
    written.write(dir.resolve("pids").resolve("node-1.pid"));

    assertThat(PidFile.read(dir.resolve("pids").resolve("node-1.pid"))).isEqualTo(written);
    assertThat(written.liveHandle()).contains(ProcessHandle.current());
  }

  @Test
  void aReusedPidIsNotTheProcessThatWasStarted() {
    PidFile mine = PidFile.of("exec-1", ProcessRole.EXECUTOR, ProcessHandle.current(), 0);
    PidFile reused =
        new PidFile(mine.name(), mine.role(), mine.pid(), mine.started().minusSeconds(60), 0);

    assertThat(reused.liveHandle()).as("same pid, other start time: never signalled").isEmpty();
  }
}
