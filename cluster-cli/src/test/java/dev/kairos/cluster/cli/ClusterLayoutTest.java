package dev.kairos.cluster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterLayoutTest {

  @Test
  void processesAreListedInStartOrder(@TempDir Path dir) {
    ClusterLayout layout = new ClusterLayout(dir);
    layout.reset();
    for (PidFile p :
        new PidFile[] {
          new PidFile("exec-1", ProcessRole.EXECUTOR, 1, java.time.Instant.EPOCH, 0),
          new PidFile("infra", ProcessRole.INFRA, 2, java.time.Instant.EPOCH, 0),
          new PidFile("node-1", ProcessRole.NODE, 3, java.time.Instant.EPOCH, 8080)
        }) {
      p.write(layout.pidFile(p.name()));
    }
    assertThat(layout.processes())
        .extracting(PidFile::name)
        .containsExactly("infra", "node-1", "exec-1");
  }

  @Test
  void resetEmptiesItsOwnFolderButRefusesAForeignOne(@TempDir Path dir) throws Exception {
    ClusterLayout own = new ClusterLayout(dir.resolve("own"));
    own.reset();
    Files.writeString(own.log("node-1"), "old log");
    own.reset();
    assertThat(own.log("node-1")).doesNotExist();

    Path foreign = dir.resolve("foreign");
    Files.createDirectories(foreign);
    Files.writeString(foreign.resolve("precious.txt"), "keep me");
    assertThatThrownBy(() -> new ClusterLayout(foreign).reset())
        .hasMessageContaining("not made by local-cluster.sh");
    assertThat(foreign.resolve("precious.txt")).exists();
  }
}
