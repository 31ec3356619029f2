package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.drills.DrillExecutor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartLogTailTest {

  @TempDir Path dir;

  @Test
  void countsTheCompleteLinesAppendedSinceTheLastCall() throws Exception {
    Path a = dir.resolve("exec-1.starts");
    Path b = dir.resolve("exec-2.starts");
    Files.writeString(a, "j:1000 1001 e1\n", StandardCharsets.UTF_8);
    StartLogTail tail =
        new StartLogTail(
            List.of(
                new DrillExecutor("e1", null, a, dir.resolve("1.stats")),
                new DrillExecutor("e2", null, b, dir.resolve("2.stats"))));
    assertThat(tail.newLines()).isZero();
    append(a, "j:2000 2001 e1\nj:3000 30");
    append(b, "k:2000 2002 e2\n");
    assertThat(tail.newLines()).isEqualTo(2);
    append(a, "02 e1\n");
    assertThat(tail.newLines()).isEqualTo(1);
    assertThat(tail.newLines()).isZero();
  }

  private static void append(Path file, String text) throws Exception {
    Files.writeString(
        file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }
}
