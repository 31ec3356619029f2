package dev.kairos.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.text.ParseException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Year;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.OptionalLong;
import java.util.TimeZone;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.quartz.CronExpression;

/**
 * The QUARTZ dialect against Quartz's own {@link CronExpression}: generated expressions over every
 * form Quartz documents (lists, ranges that wrap, steps, names, {@code ?}, {@code L}, {@code L-n},
 * {@code nW}, {@code LW}, {@code nL}, {@code n#k}, the optional year), from generated instants,
 * must give the same next fire times, several fires in a row. Zones without daylight saving time
 * only: across a DST change Kairos applies its own documented policy (see {@link CronSchedule}),
 * which differs from Quartz's on purpose.
 */
class QuartzDialectOracleTest {

  private static final String[] ZONES = {"UTC", "Asia/Shanghai", "Asia/Kolkata"};
  private static final String[] MONTHS = {
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"
  };
  private static final String[] DAYS = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};
  private static final long FROM_MS = Instant.parse("2000-01-01T00:00:00Z").toEpochMilli();
  private static final long TO_MS = Instant.parse("2060-01-01T00:00:00Z").toEpochMilli();
  private static final int FIRES_COMPARED = 6;

  @Property(tries = 3000, edgeCases = EdgeCasesMode.MIXIN)
  void nextFireTimesMatchQuartz(
      @ForAll("quartzCrons") String cron,
      @ForAll("zones") String zoneId,
      @ForAll("instants") long fromMs)
      throws ParseException {
    assertSameFires(cron, zoneId, fromMs);
  }

  @Property(tries = 1500, edgeCases = EdgeCasesMode.MIXIN)
  void nearestWeekdayFiresMatchQuartzFromTheStartOfAMonth(
      @ForAll("weekdayCrons") String cron,
      @ForAll("zones") String zoneId,
      @ForAll("monthStarts") LocalDate month)
      throws ParseException {
    // A whole second before the month: from an instant with milliseconds, Quartz 2.5.2 skips a
    // nearest-weekday fire due in the very next second (it compares the candidate with the
    // untruncated instant), a divergence
    // quartzSkipsAWeekdayFireDueInTheSecondAfterAnInstantWithMilliseconds pins down.
    long fromMs = month.atStartOfDay(ZoneId.of(zoneId)).toInstant().toEpochMilli() - 1000;
    assertSameFires(cron, zoneId, fromMs);
  }

  @Example
  void quartzSkipsAWeekdayFireDueInTheSecondAfterAnInstantWithMilliseconds() throws ParseException {
    String cron = "0 0 0 1W * ?";
    long from = Instant.parse("2000-01-31T23:59:59.999Z").toEpochMilli();
    CronExpression oracle = new CronExpression(cron);
    oracle.setTimeZone(TimeZone.getTimeZone("UTC"));

    assertThat(oracle.getTimeAfter(new Date(from)).toInstant())
        .isEqualTo(Instant.parse("2000-03-01T00:00:00Z"));
    assertThat(CronSchedule.parse(cron, ZoneId.of("UTC"), CronDialect.QUARTZ).nextFireAfter(from))
        .hasValue(Instant.parse("2000-02-01T00:00:00Z").toEpochMilli());
  }

  private static void assertSameFires(String cron, String zoneId, long fromMs)
      throws ParseException {
    CronExpression oracle = new CronExpression(cron);
    oracle.setTimeZone(TimeZone.getTimeZone(zoneId));
    CronSchedule kairos = CronSchedule.parse(cron, ZoneId.of(zoneId), CronDialect.QUARTZ);

    // Quartz searches up to 100 years past today's year, Kairos 100 years past the instant it
    // starts from; past Quartz's horizon only Kairos can answer.
    long quartzHorizonMs =
        LocalDate.of(Year.now().getValue() + 101, 1, 1)
            .atStartOfDay(ZoneId.of(zoneId))
            .toInstant()
            .toEpochMilli();
    List<Long> expected = new ArrayList<>();
    List<Long> actual = new ArrayList<>();
    Date quartzAfter = new Date(fromMs);
    long kairosAfter = fromMs;
    for (int i = 0; i < FIRES_COMPARED; i++) {
      Date q = quartzAfter == null ? null : oracle.getTimeAfter(quartzAfter);
      expected.add(q == null ? null : q.getTime());
      quartzAfter = q;
      OptionalLong k = kairosAfter < 0 ? OptionalLong.empty() : kairos.nextFireAfter(kairosAfter);
      boolean seen = k.isPresent() && k.getAsLong() < quartzHorizonMs;
      actual.add(seen ? k.getAsLong() : null);
      kairosAfter = seen ? k.getAsLong() : -1;
    }
    Statistics.label("has a fire").collect(expected.get(0) != null);
    assertThat(actual)
        .as("'%s' in %s after %s", cron, zoneId, Instant.ofEpochMilli(fromMs))
        .isEqualTo(expected);
  }

  @Provide
  Arbitrary<String> zones() {
    return Arbitraries.of(ZONES);
  }

  @Provide
  Arbitrary<Long> instants() {
    return Arbitraries.longs().between(FROM_MS, TO_MS);
  }

  @Provide
  Arbitrary<LocalDate> monthStarts() {
    return Arbitraries.integers()
        .between(2000 * 12, 2059 * 12)
        .map(m -> LocalDate.of(m / 12, m % 12 + 1, 1));
  }

  @Provide
  Arbitrary<String> quartzCrons() {
    return crons(false);
  }

  @Provide
  Arbitrary<String> weekdayCrons() {
    return crons(true);
  }

  private static Arbitrary<String> crons(boolean weekdays) {
    Arbitrary<String> seconds = weekdays ? value(0, 59, null) : plainField(0, 59, null);
    Arbitrary<String> minutes = weekdays ? value(0, 59, null) : plainField(0, 59, null);
    Arbitrary<String> hours = weekdays ? value(0, 23, null) : plainField(0, 23, null);
    Arbitrary<String> months = plainField(1, 12, MONTHS);
    Arbitrary<Tuple.Tuple2<String, String>> days =
        Arbitraries.oneOf(
            dayOfMonth(weekdays).map(dom -> Tuple.of(dom, "?")),
            dayOfWeek().map(dow -> Tuple.of("?", dow)));
    if (weekdays) {
      days = dayOfMonth(true).map(dom -> Tuple.of(dom, "?"));
    }
    Arbitrary<String> year =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.just("")),
            Tuple.of(1, Arbitraries.just(" *")),
            Tuple.of(3, years().map(y -> " " + y)));
    return Combinators.combine(seconds, minutes, hours, days, months, year)
        .as(
            (s, m, h, d, mo, y) ->
                s + " " + m + " " + h + " " + d.get1() + " " + mo + " " + d.get2() + y);
  }

  /**
   * {@code *}, or a list of 1-3 of: n, a-b (wrapping when a > b), a/s, *&#47;s, a-b/s, and with
   * names NAME and NAME-NAME (the only name forms Quartz reads whole).
   */
  private static Arbitrary<String> plainField(int min, int max, String[] names) {
    Arbitrary<String> value = value(min, max, null);
    Arbitrary<Integer> step = Arbitraries.integers().between(1, Math.min(max - min + 1, 20));
    List<Arbitrary<String>> items = new ArrayList<>();
    items.add(value);
    items.add(Combinators.combine(value, value).as((a, b) -> a + "-" + b));
    items.add(Combinators.combine(value, step).as((a, s) -> a + "/" + s));
    items.add(step.map(s -> "*/" + s));
    items.add(Combinators.combine(value, value, step).as((a, b, s) -> a + "-" + b + "/" + s));
    if (names != null) {
      Arbitrary<String> name = value(min, max, names);
      items.add(name);
      items.add(Combinators.combine(name, name).as((a, b) -> a + "-" + b));
    }
    Arbitrary<String> item = Arbitraries.oneOf(items);
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just("*")),
        Tuple.of(4, item.list().ofMinSize(1).ofMaxSize(3).map(l -> String.join(",", l))));
  }

  /** Quartz refuses a year range that runs backwards, so years only ascend. */
  private static Arbitrary<String> years() {
    Arbitrary<Integer> year = Arbitraries.integers().between(2000, 2070);
    Arbitrary<Integer> step = Arbitraries.integers().between(1, 10);
    Arbitrary<String> item =
        Arbitraries.oneOf(
            year.map(String::valueOf),
            Combinators.combine(year, year).as((a, b) -> Math.min(a, b) + "-" + Math.max(a, b)),
            Combinators.combine(year, step).as((a, s) -> a + "/" + s),
            Combinators.combine(year, year, step)
                .as((a, b, s) -> Math.min(a, b) + "-" + Math.max(a, b) + "/" + s));
    return item.list().ofMinSize(1).ofMaxSize(3).map(l -> String.join(",", l));
  }

  private static Arbitrary<String> value(int min, int max, String[] names) {
    Arbitrary<Integer> number = Arbitraries.integers().between(min, max);
    if (names == null) {
      return number.map(String::valueOf);
    }
    return number.map(n -> names[n - min]);
  }

  /** Day-of-month: plain or a last-day form, or (weekdays) one nearest-weekday form. */
  private static Arbitrary<String> dayOfMonth(boolean weekdays) {
    Arbitrary<Integer> day = Arbitraries.integers().between(1, 31);
    Arbitrary<Integer> offset = Arbitraries.integers().between(0, 30);
    Arbitrary<String> special =
        weekdays
            ? Arbitraries.oneOf(
                Arbitraries.just("LW"), offset.map(n -> "L-" + n + "W"), day.map(n -> n + "W"))
            : Arbitraries.oneOf(Arbitraries.just("L"), offset.map(n -> "L-" + n));
    // Lists that mix plain days with L or W forms are left out: Quartz 2.5.2 mis-evaluates them
    // ("29,L-1" skips February 28 in a leap year; "30,30W" skips the Monday after a Sunday 30th).
    return weekdays ? special : Arbitraries.oneOf(plainField(1, 31, null), special);
  }

  private static Arbitrary<String> dayOfWeek() {
    Arbitrary<String> day = Arbitraries.oneOf(value(1, 7, null), value(1, 7, DAYS));
    return Arbitraries.oneOf(
        plainField(1, 7, DAYS),
        Arbitraries.just("L"),
        day.map(d -> d + "L"),
        Combinators.combine(day, Arbitraries.integers().between(1, 5)).as((d, n) -> d + "#" + n));
  }
}
