package dev.kairos.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random cron expressions from random starting instants against a brute-force reference that walks
 * the time line minute by minute and applies the documented DST policy literally. The generator
 * knows each field's value set, so the reference does not share the parser.
 */
class CronScheduleReferenceTest {

  private static final String[] ZONES = {
    "UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata"
  };
  private static final String[] MONTHS = {
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"
  };
  private static final String[] DAYS = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};
  private static final long WINDOW_MS = 3 * 24 * 3_600_000L;
  private static final int MAX_FIRES = 200;

  @Test
  void randomExpressionsAgreeWithBruteForceIncludingAroundDstTransitions() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    long from2020 = Instant.parse("2020-01-01T00:00:00Z").toEpochMilli();
    long to2030 = Instant.parse("2030-01-01T00:00:00Z").toEpochMilli();
    int compared = 0;
    for (int i = 0; i < 250; i++) {
      ZoneId zone = ZoneId.of(ZONES[random.nextInt(ZONES.length)]);
      Generated cron = Generated.random(random);
      long start = from2020 + (long) (random.nextDouble() * (to2030 - from2020));
      if (random.nextBoolean()) {
        // Start within a day before a transition so gaps and overlaps are crossed often.
        ZoneOffsetTransition next = zone.getRules().nextTransition(Instant.ofEpochMilli(start));
        if (next != null) {
          start = next.toEpochSecond() * 1000 - (long) (random.nextDouble() * 86_400_000L);
        }
      }
      start += random.nextInt(1000); // not always on a whole second
      String context = "seed " + seed + ", cron '" + cron.text + "' in " + zone + " after " + start;
      List<Long> expected = reference(cron, zone, start, start + WINDOW_MS, MAX_FIRES);
      // At the cap, compare up to the last fire the reference found.
      long end = expected.size() == MAX_FIRES ? expected.get(MAX_FIRES - 1) : start + WINDOW_MS;
      List<Long> actual = new ArrayList<>();
      CronSchedule schedule = CronSchedule.parse(cron.text, zone);
      long t = start;
      while (true) {
        OptionalLong next = schedule.nextFireAfter(t);
        if (next.isEmpty() || next.getAsLong() > end) {
          break;
        }
        actual.add(next.getAsLong());
        t = next.getAsLong();
        if (actual.size() > expected.size() + 1) {
          break;
        }
      }
      assertThat(actual).as(context).isEqualTo(expected);
      compared += expected.size();
    }
    assertThat(compared).as("fires compared (seed " + seed + ")").isGreaterThan(3_000);
  }

  /** Every fire in (fromMs, toMs], walking UTC minutes and applying the DST policy literally. */
  private static List<Long> reference(
      Generated cron, ZoneId zone, long fromMs, long toMs, int maxFires) {
    ZoneRules rules = zone.getRules();
    List<Long> fires = new ArrayList<>();
    for (long m = Math.floorDiv(fromMs, 60_000) * 60_000;
        m <= toMs && fires.size() < maxFires;
        m += 60_000) {
      boolean gapFire = false;
      ZoneOffsetTransition transition = rules.nextTransition(Instant.ofEpochMilli(m - 1));
      if (transition != null && transition.toEpochSecond() * 1000 == m && transition.isGap()) {
        // Any local time inside the gap that matches fires once, at the end of the gap.
        for (LocalDateTime l = transition.getDateTimeBefore();
            l.isBefore(transition.getDateTimeAfter());
            l = l.plusSeconds(1)) {
          if (cron.matches(l)) {
            gapFire = true;
            break;
          }
        }
      }
      ZoneOffset offset = rules.getOffset(Instant.ofEpochMilli(m));
      LocalDateTime local = LocalDateTime.ofEpochSecond(m / 1000, 0, offset);
      List<ZoneOffset> valid = rules.getValidOffsets(local);
      boolean secondPassOfOverlap = valid.size() == 2 && offset.equals(valid.get(1));
      boolean minuteMatches =
          !secondPassOfOverlap
              && cron.month.get(local.getMonthValue())
              && cron.dayMatches(local.toLocalDate())
              && cron.hour.get(local.getHour())
              && cron.minute.get(local.getMinute());
      if (!minuteMatches && !gapFire) {
        continue;
      }
      for (int s = 0; s < 60; s++) {
        long instant = m + s * 1000L;
        boolean isFire = (s == 0 && gapFire) || (minuteMatches && cron.second.get(s));
        if (isFire && instant > fromMs && instant <= toMs && fires.size() < maxFires) {
          fires.add(instant);
        }
      }
    }
    return fires;
  }

  /** A random expression and the value set of each field. */
  private record Generated(
      String text,
      BitSet second,
      BitSet minute,
      BitSet hour,
      BitSet dayOfMonth,
      boolean lastDayOfMonth,
      boolean dayOfMonthStar,
      BitSet month,
      BitSet dayOfWeek,
      boolean dayOfWeekStar) {

    static Generated random(Random r) {
      Field second = Field.random(r, 0, 59, null, 0.5);
      Field minute = Field.random(r, 0, 59, null, 0.5);
      Field hour = Field.random(r, 0, 23, null, 0.6);
      Field month = Field.random(r, 1, 12, MONTHS, 0.8);
      String domText;
      BitSet dom = new BitSet();
      boolean last = false;
      boolean domStar;
      Field dow;
      int dayChoice = r.nextInt(4);
      if (dayChoice == 0) {
        domText = r.nextBoolean() ? "*" : "?";
        domStar = true;
      } else if (dayChoice == 1 && r.nextInt(4) == 0) {
        domText = "L";
        last = true;
        domStar = false;
      } else {
        Field f = Field.random(r, 1, 31, null, 0.3);
        domText = f.text;
        dom = f.values;
        domStar = f.text.equals("*");
      }
      if (r.nextInt(3) == 0) {
        dow = Field.random(r, 0, 7, DAYS, 0.2);
      } else {
        dow = new Field(r.nextBoolean() ? "*" : "?", range(0, 7));
      }
      BitSet dowValues = (BitSet) dow.values.clone();
      if (dowValues.get(7)) {
        dowValues.set(0);
        dowValues.clear(7);
      }
      boolean dowStar = dow.text.equals("*") || dow.text.equals("?");
      String text =
          String.join(" ", second.text, minute.text, hour.text, domText, month.text, dow.text);
      return new Generated(
          text,
          second.values,
          minute.values,
          hour.values,
          dom,
          last,
          domStar,
          month.values,
          dowValues,
          dowStar);
    }

    boolean matches(LocalDateTime l) {
      return second.get(l.getSecond())
          && minute.get(l.getMinute())
          && hour.get(l.getHour())
          && month.get(l.getMonthValue())
          && dayMatches(l.toLocalDate());
    }

    boolean dayMatches(LocalDate d) {
      boolean domMatch =
          dayOfMonth.get(d.getDayOfMonth())
              || (lastDayOfMonth && d.getDayOfMonth() == d.lengthOfMonth());
      boolean dowMatch = dayOfWeek.get(d.getDayOfWeek().getValue() % 7);
      if (dayOfMonthStar && dayOfWeekStar) {
        return true;
      }
      if (dayOfMonthStar) {
        return dowMatch;
      }
      if (dayOfWeekStar) {
        return domMatch;
      }
      return domMatch || dowMatch;
    }
  }

  private record Field(String text, BitSet values) {

    /** {@code starChance}: how often the field is plain {@code *} (keeps fires frequent). */
    static Field random(Random r, int min, int max, String[] names, double starChance) {
      if (r.nextDouble() < starChance) {
        return new Field("*", range(min, max));
      }
      List<String> items = new ArrayList<>();
      BitSet values = new BitSet();
      int count = 1 + r.nextInt(3);
      for (int i = 0; i < count; i++) {
        int a = min + r.nextInt(max - min + 1);
        int b = min + r.nextInt(max - min + 1);
        switch (r.nextInt(5)) {
          case 0 -> {
            items.add(name(a, min, names, r));
            values.set(a);
          }
          case 1 -> {
            // A range, wrapping past the end when a > b.
            items.add(name(a, min, names, r) + "-" + name(b, min, names, r));
            if (a <= b) {
              values.set(a, b + 1);
            } else {
              values.set(a, max + 1);
              values.set(min, b + 1);
            }
          }
          case 2 -> {
            int step = 1 + r.nextInt(Math.max(1, (max - min) / 2));
            items.add("*/" + step);
            for (int v = min; v <= max; v += step) {
              values.set(v);
            }
          }
          case 3 -> {
            int step = 1 + r.nextInt(Math.max(1, (max - min) / 2));
            items.add(a + "/" + step);
            for (int v = a; v <= max; v += step) {
              values.set(v);
            }
          }
          default -> {
            int lo = Math.min(a, b);
            int hi = Math.max(a, b);
            int step = 1 + r.nextInt(5);
            items.add(lo + "-" + hi + "/" + step);
            for (int v = lo; v <= hi; v += step) {
              values.set(v);
            }
          }
        }
      }
      return new Field(String.join(",", items), values);
    }

    private static String name(int value, int min, String[] names, Random r) {
      if (names == null || !r.nextBoolean() || value - min >= names.length) {
        return Integer.toString(value);
      }
      String name = names[value - min];
      return r.nextBoolean() ? name : name.toLowerCase();
    }
  }

  private static BitSet range(int min, int max) {
    BitSet set = new BitSet();
    set.set(min, max + 1);
    return set;
  }
}
