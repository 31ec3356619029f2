package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DrillReportTest {

  private static final long T0 = 1_800_000_000_000L;

  @Test
  void writesTheTableThePlotAndThePoints(@TempDir Path dir) throws IOException {
    Map<String, Long> starts = new LinkedHashMap<>();
    for (int s = 0; s < 30; s++) {
      long fire = T0 + s * 1_000L;
      // Late by 5 s for the fires due while the fault lasted (10 s .. 20 s), 50 ms otherwise.
      starts.put("job:" + fire, fire + (s >= 10 && s < 20 ? 5_000 : 50));
    }
    DrillReport report =
        new DrillReport(
            "redis-restart", T0, T0 + 10_000, T0 + 20_000, T0 + 30_000, starts, 31, 1, 0, 0, 0);

    Path out = report.write(dir);

    String markdown = Files.readString(out.resolve("report.md"));
    assertThat(markdown)
        .startsWith("# Drill `redis-restart`: FAILED")
        .contains("| 31 | 30 | 1 | 0 | 0 | 0 | 50 / 50 / 50 ms | 50 / 5000 / 5000 ms |")
        .contains("| 10000 ms |")
        .contains("![start lateness](lateness.png)");
    assertThat(Files.readAllLines(out.resolve("starts.csv")))
        .hasSize(31)
        .startsWith("fire_ms,lateness_ms", T0 + ",50")
        .contains((T0 + 15_000) + ",5000");
    BufferedImage png = ImageIO.read(out.resolve("lateness.png").toFile());
    assertThat(png.getWidth()).isEqualTo(1000);
    assertThat(png.getHeight()).isEqualTo(500);
  }

  @Test
  void passesOnlyWhenNothingWasMissedEarlyDuplicatedOrLeftClaimed() {
    Map<String, Long> none = Map.of();
    assertThat(new DrillReport("x", 0, 1, 2, 3, none, 0, 0, 0, 0, 0).passed()).isTrue();
    assertThat(new DrillReport("x", 0, 1, 2, 3, none, 0, 0, 1, 0, 0).passed()).isFalse();
    assertThat(new DrillReport("x", 0, 1, 2, 3, none, 0, 0, 0, 1, 0).passed()).isFalse();
    assertThat(new DrillReport("x", 0, 1, 2, 3, none, 0, 0, 0, 0, 1).passed()).isFalse();
  }
}
