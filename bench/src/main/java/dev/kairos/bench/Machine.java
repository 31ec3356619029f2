package dev.kairos.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/** What the machine was doing: load average, cores, time; printed with every result. */
public final class Machine {

  private Machine() {}

  /** The first three fields of /proc/loadavg, or the JMX load average elsewhere. */
  public static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return String.format(
          "%.2f",
          java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  public static String describe() {
    return String.format(
        "%s, %d cores, Java %s, load average (1/5/15 min) %s",
        Instant.now(),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        loadAverage());
  }
}
