package dev.kairos.drills;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * A child process's wall clock under libfaketime ({@code LD_PRELOAD}), offset by what a file says:
 * rewriting the file steps the clock of the running process, as NTP stepping a machine's clock
 * would. The monotonic clock is left alone, as a real step leaves it.
 */
final class FakeClock {

  /** Where Debian's {@code faketime} package puts the multi-threaded library. */
  private static final List<String> CANDIDATES =
      List.of(
          "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1",
          "/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1",
          "/usr/lib/faketime/libfaketimeMT.so.1");

  private FakeClock() {}

  /** The installed library ({@code -Ddrills.libfaketime=PATH} overrides the search). */
  static Path library() {
    String configured = System.getProperty("drills.libfaketime");
    List<String> paths = configured != null ? List.of(configured) : CANDIDATES;
    for (String path : paths) {
      if (Files.isReadable(Path.of(path))) {
        return Path.of(path);
      }
    }
    throw new IllegalStateException(
        "libfaketime not found at "
            + paths
            + ": install Debian's faketime package (apt-get install -y faketime)");
  }

  static Map<String, String> environment(Path library, Path clockFile) {
    return Map.of(
        "LD_PRELOAD",
        library.toString(),
        "FAKETIME_TIMESTAMP_FILE",
        clockFile.toString(),
        // Re-read the file at most once a second: a step lands within a second.
        "FAKETIME_CACHE_DURATION",
        "1",
        "FAKETIME_DONT_FAKE_MONOTONIC",
        "1",
        // With its monotonic fix on (0.9.10's default), libfaketime makes the JVM's timed waits
        // (pthread_cond_timedwait on CLOCK_MONOTONIC) return at once: parkNanos and wait(ms) spin
        // and a node cannot start. Measured here: 478k parkNanos(1 ms) in 3 s instead of 2.7k.
        "FAKETIME_FORCE_MONOTONIC_FIX",
        "0");
  }

  /** Replaces the offset at once (a rename, so the process never reads half a file). */
  static void write(Path clockFile, String offset) {
    try {
      Files.createDirectories(clockFile.getParent());
      Path tmp = clockFile.resolveSibling(clockFile.getFileName() + ".tmp");
      Files.writeString(tmp, offset + "\n", StandardCharsets.US_ASCII);
      Files.move(
          tmp, clockFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the fake clock " + clockFile, e);
    }
  }
}
