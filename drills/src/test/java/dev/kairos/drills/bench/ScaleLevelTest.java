package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ScaleLevelTest {

  private static final List<String> PROCESSES = List.of("node-1", "node-2", "exec-1", "exec-2");

  private static ScaleLevel level(RebuildProbe.Result rebuild, ApiProbe.Result api) {
    FireOutcome burst = new FireOutcome(100, 100, 0, 0, 0, Dist.of(List.of(10L, 20L)));
    ScanProbe.Result scan =
        new ScanProbe.Result(
            1_800_000_060_000L,
            1_800_000_030_000L,
            1_800_000_090_000L,
            55,
            260,
            410,
            270.5,
            2_750,
            1_234_000,
            35.2,
            burst,
            burst,
            980,
            1.5,
            2.5);
    return new ScaleLevel(
        10_000,
        new ScaleImport.Result(10_000, 10, 2, 3.2),
        scan,
        new JobMemory(30_000_000, 12_345, 1000, 900.5, 600.25, 1_500_000, 4_000_000),
        2_000_000,
        new PgSizes(8_000_000, 10_000, 4_000_000, 8_000, 0, 30_000_000),
        Map.of("node-1", OptionalLong.of(60_000_000), "exec-1", OptionalLong.empty()),
        rebuild,
        api);
  }

  @Test
  void everyLineHasItsHeadersColumns() {
    RebuildProbe.Result rebuild =
        new RebuildProbe.Result(
            10_000,
            2.5,
            9_800,
            1_800_000_100_000L,
            1.2,
            14.0,
            13.9,
            10_000,
            9_800,
            4.1,
            10_000,
            FireOutcome.NONE,
            3,
            40,
            new RebuildProbe.Scores(1990, 10, 0, 0),
            12_000_000);
    ApiProbe.Result api =
        new ApiProbe.Result(
            List.of(
                new ApiProbe.Call(
                    "list, first page", "/api/v1/jobs?size=50", 50, 0, 12, 30, 31, 20_000),
                new ApiProbe.Call(
                    "search owner (q)", "/api/v1/jobs?size=50&q=team-07", 3, 1, 40, 90, 90, 0)),
            new ExportProbe.Export(200, 1.5, 5_000_000, 80_000_000, 140_000_000, 90_000_000),
            10_000);
    ScaleLevel level = level(rebuild, api);
    assertColumns(ScaleLevel.importHeader(), level.importLine());
    assertColumns(ScaleLevel.storageHeader(PROCESSES), level.storageLine(PROCESSES));
    assertColumns(ScaleLevel.scanHeader(), level.scanLine());
    assertColumns(ScaleLevel.burstHeader(), level.burstLine());
    assertColumns(ScaleLevel.rebuildHeader(), level.rebuildLine());
    level.apiLines().forEach(line -> assertColumns(ScaleLevel.apiHeader(), line));
    assertColumns(ScaleLevel.exportHeader(), level.exportLine());
    assertThat(level.importLine())
        .startsWith("| 10,000 | 10,000 | 3.2 (10, 2) | 3,125 | 30.0 | 2,800 |");
    assertThat(level.storageLine(PROCESSES)).endsWith("| 60.0 | – | – | – |");
    assertThat(level.exportLine())
        .isEqualTo("| 10,000 | 10,000 | 200 | 1.5 | 5.0 | 80 / 140 / 90 |");
  }

  @Test
  void aLevelThatStoppedEarlyStillPrintsItsRows() {
    ScaleLevel level = level(null, null);
    assertColumns(ScaleLevel.exportHeader(), level.exportLine());
    level.apiLines().forEach(line -> assertColumns(ScaleLevel.apiHeader(), line));
    assertThat(level.rebuildLine()).contains("not run");
  }

  private static void assertColumns(String header, String line) {
    String[] rows = header.split("\n");
    assertThat(cells(line)).as(line).isEqualTo(cells(rows[0]));
    assertThat(cells(rows[1])).isEqualTo(cells(rows[0]));
  }

  private static long cells(String row) {
    return row.chars().filter(c -> c == '|').count() - 1;
  }
}
