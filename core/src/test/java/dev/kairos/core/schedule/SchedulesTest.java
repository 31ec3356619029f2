package dev.kairos.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.model.ScheduleType;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SchedulesTest {

  @Test
  void parsesEveryType() {
    assertThat(Schedules.parse(ScheduleType.CRON, " 0 * * * * * ", ZoneOffset.UTC, 0))
        .isInstanceOf(CronSchedule.class);
    assertThat(Schedules.parse(ScheduleType.FIXED_RATE, "1000", ZoneOffset.UTC, 7))
        .isEqualTo(new FixedRateSchedule(1_000, 7));
    assertThat(Schedules.parse(ScheduleType.FIXED_DELAY, "250", ZoneOffset.UTC, 7))
        .isEqualTo(new FixedDelaySchedule(250));
    assertThat(Schedules.parse(ScheduleType.ONE_SHOT, "42", ZoneOffset.UTC, 7))
        .isEqualTo(new OneShotSchedule(42));
    assertThat(Schedules.parse(ScheduleType.API, "", ZoneOffset.UTC, 7))
        .isEqualTo(ApiSchedule.INSTANCE);
  }

  @Test
  void rejectsNonPositiveIntervalsAndGarbage() {
    assertThatThrownBy(() -> Schedules.parse(ScheduleType.FIXED_RATE, "0", ZoneOffset.UTC, 0))
        .isInstanceOf(InvalidScheduleException.class)
        .hasMessageContaining("> 0");
    assertThatThrownBy(() -> Schedules.parse(ScheduleType.FIXED_DELAY, "-5", ZoneOffset.UTC, 0))
        .isInstanceOf(InvalidScheduleException.class);
    assertThatThrownBy(() -> Schedules.parse(ScheduleType.ONE_SHOT, "tomorrow", ZoneOffset.UTC, 0))
        .isInstanceOf(InvalidScheduleException.class)
        .hasMessageContaining("tomorrow");
    assertThatThrownBy(() -> Schedules.parse(ScheduleType.API, "0 * * * * *", ZoneOffset.UTC, 0))
        .isInstanceOf(InvalidScheduleException.class);
    assertThatThrownBy(() -> Schedules.zone("Mars/Olympus_Mons"))
        .isInstanceOf(InvalidScheduleException.class)
        .hasMessageContaining("Mars/Olympus_Mons");
  }

  @Test
  void fixedRateFiresOnItsAnchorGrid() {
    FixedRateSchedule s = new FixedRateSchedule(1_000, 500);
    assertThat(s.nextFireAfter(0)).hasValue(500);
    assertThat(s.nextFireAfter(500)).hasValue(1_500);
    assertThat(s.nextFireAfter(1_499)).hasValue(1_500);
    assertThat(s.nextFireAfter(Long.MAX_VALUE - 10)).isEmpty();
  }

  @Test
  void oneShotFiresOnceAndFixedDelayAndApiNeverByThemselves() {
    assertThat(new OneShotSchedule(100).nextFireAfter(99)).hasValue(100);
    assertThat(new OneShotSchedule(100).nextFireAfter(100)).isEmpty();
    assertThat(new FixedDelaySchedule(100).nextFireAfter(0)).isEmpty();
    assertThat(ApiSchedule.INSTANCE.nextFireAfter(0)).isEmpty();
  }

  @Test
  void firstFireOfEachType() {
    long now = 10_000;
    assertThat(Schedules.firstFire(new FixedDelaySchedule(300), now)).hasValue(10_300);
    assertThat(Schedules.firstFire(new OneShotSchedule(9_000), now)).hasValue(9_000);
    assertThat(Schedules.firstFire(new FixedRateSchedule(3_000, now), now)).hasValue(13_000);
    assertThat(Schedules.firstFire(ApiSchedule.INSTANCE, now)).isEmpty();
  }
}
