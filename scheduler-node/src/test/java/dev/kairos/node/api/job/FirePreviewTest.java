package dev.kairos.node.api.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.schedule.Schedules;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class FirePreviewTest {

  private static final ZoneId UTC = ZoneId.of("UTC");
  private static final long FROM = Instant.parse("2027-01-01T00:00:00.500Z").toEpochMilli();

  @Test
  void fixedRateContinuesFromItsAnchor() {
    FirePreview.Result r =
        FirePreview.of(Schedules.parse(ScheduleType.FIXED_RATE, "1000", UTC, 0), UTC, FROM, 3);
    assertThat(r.fires())
        .extracting(FirePreview.Fire::epochMs)
        .containsExactly(FROM + 500, FROM + 1500, FROM + 2500);
    assertThat(r.note()).isNull();
  }

  @Test
  void fixedDelayAssumesInstantRunsAndSaysSo() {
    FirePreview.Result r =
        FirePreview.of(Schedules.parse(ScheduleType.FIXED_DELAY, "250", UTC, 0), UTC, FROM, 2);
    assertThat(r.fires())
        .extracting(FirePreview.Fire::epochMs)
        .containsExactly(FROM + 250, FROM + 500);
    assertThat(r.note()).contains("FIXED_DELAY");
  }

  @Test
  void aOneShotFiresOnceAndThenThereIsNothing() {
    long at = FROM + 60_000;
    FirePreview.Result r =
        FirePreview.of(
            Schedules.parse(ScheduleType.ONE_SHOT, Long.toString(at), UTC, 0), UTC, FROM, 5);
    assertThat(r.fires()).extracting(FirePreview.Fire::epochMs).containsExactly(at);
    assertThat(r.fires().get(0).time()).isEqualTo("2027-01-01T00:01:00.500Z");
  }

  @Test
  void anImpossibleCronHasNoFiresAndANote() {
    FirePreview.Result r =
        FirePreview.of(Schedules.parse(ScheduleType.CRON, "0 0 0 30 2 *", UTC, 0), UTC, FROM, 3);
    assertThat(r.fires()).isEmpty();
    assertThat(r.note()).contains("no fire");
  }
}
