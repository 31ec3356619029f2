package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchRowTest {

  private static BenchRow row(long missed, long p99) {
    Map<String, Long> cpu = new LinkedHashMap<>();
    cpu.put("node-1", 1_000_000L);
    cpu.put("redis-server", 500_000L);
    Map<String, Long> jit = new LinkedHashMap<>();
    jit.put("node-1", 400_000L);
    jit.put("redis-server", 0L);
    Map<String, Long> switches = new LinkedHashMap<>();
    switches.put("node-1", 25_000L);
    switches.put("redis-server", 5_000L);
    return new BenchRow(
        Workload.W1,
        500,
        1.5,
        100,
        7,
        20,
        10_000,
        10_000 - missed,
        missed,
        0,
        0,
        new Dist(10_000, 0, 10, 50, p99, 400),
        10_000,
        new Dist(10_000, 0, 2, 5, 9, 30),
        Dist.EMPTY,
        Dist.EMPTY,
        new CpuMeter.Usage(cpu, jit, switches, 3_000_000L, 40_000_000L),
        new RedisMemory(123_456_789L, 45_678L, new SyncBacklog(2_500, 10)),
        1.5,
        2.5);
  }

  @Test
  void perFireCpuDividesByTheStartsInTheWindow() {
    BenchRow r = row(0, 100);
    assertThat(r.firesPerSecond()).isEqualTo(500.0);
    assertThat(r.processMicrosPerFire()).isEqualTo(150.0);
    assertThat(r.machineBusyMicrosPerFire()).isEqualTo(300.0);
  }

  @Test
  void tableLinesHaveAsManyCellsAsTheirHeaders() {
    BenchRow r = row(0, 100);
    assertThat(cells(r.mainLine())).isEqualTo(cells(BenchRow.mainHeader().split("\n")[0]));
    assertThat(cells(r.mainLine())).isEqualTo(cells(BenchRow.mainHeader().split("\n")[1]));
    String cpuHeader = BenchRow.cpuHeader(List.of("node-1", "redis-server"));
    assertThat(cells(r.cpuLine())).isEqualTo(cells(cpuHeader.split("\n")[0]));
    assertThat(cells(r.cpuLine())).isEqualTo(cells(cpuHeader.split("\n")[1]));
    assertThat(r.cpuLine()).contains("1.00 s (100 µs)");
    String jitHeader = BenchRow.jitHeader(List.of("node-1", "redis-server"));
    assertThat(cells(r.jitLine())).isEqualTo(cells(jitHeader.split("\n")[0]));
    assertThat(cells(r.jitLine())).isEqualTo(cells(jitHeader.split("\n")[1]));
    String switchesHeader = BenchRow.switchesHeader(List.of("node-1", "redis-server"));
    assertThat(cells(r.switchesLine())).isEqualTo(cells(switchesHeader.split("\n")[0]));
    assertThat(cells(r.switchesLine())).isEqualTo(cells(switchesHeader.split("\n")[1]));
  }

  @Test
  void theMainLineCarriesRedisMemoryKeysAndTheSyncBacklogBeforeTheLoad() {
    assertThat(row(0, 100).mainLine()).endsWith("| 123.5 | 45,678 | 2.5 | 1.50 → 2.50 | yes |");
  }

  @Test
  void theSwitchesLineDividesEachProcessesCountByTheStartsInTheWindow() {
    assertThat(row(0, 100).switchesLine()).endsWith("| 2.5 | 0.5 | 3.0 |");
  }

  @Test
  void theJitLineShowsEachProcessesCompilerShareAndTheRestWithoutIt() {
    BenchRow r = row(0, 100);
    assertThat(r.jitLine()).contains("| 0.40 s (40 µs) | 0.00 s (0 µs) | 0.40 s (40 µs) |");
    assertThat(r.jitLine()).endsWith("| 1.10 s (110 µs) |");
  }

  @Test
  void theKeepUpColumnFollowsTheRule() {
    assertThat(row(0, 100).mainLine()).endsWith("| yes |");
    assertThat(row(11, 100).mainLine()).endsWith("| **no** |");
    assertThat(row(0, 1_000).mainLine()).endsWith("| **no** |");
  }

  private static long cells(String line) {
    return line.chars().filter(c -> c == '|').count();
  }
}
