package dev.kairos.devinfra;

import java.util.concurrent.TimeUnit;

final class Millis {

  private Millis() {}

  static long since(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }
}
