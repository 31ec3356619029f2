package dev.kairos.drills.bench;

import java.util.Locale;

/** The bench's progress lines on stdout, {@code bench: ...}, formatted in the root locale. */
final class BenchOut {

  private BenchOut() {}

  static void say(String format, Object... args) {
    System.out.println("bench: " + String.format(Locale.ROOT, format, args));
  }
}
