package dev.kairos.drills.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JVM's live heap: {@code jcmd <pid> GC.run} (a full collection), then {@code jcmd <pid>
 * GC.heap_info}, whose generation lines ({@code def new generation total …K, used …K}, {@code
 * tenured generation …}; G1's {@code garbage-first heap …}) are summed. Metaspace is not heap and
 * is left out. Works on every child JVM, executors included, which serve no HTTP.
 */
final class HeapAfterGc {

  private static final Pattern USED = Pattern.compile("used (\\d+)K");
  private static final long JCMD_TIMEOUT_S = 60;

  private HeapAfterGc() {}

  /** Bytes of heap in use after a full collection of {@code pid}; empty when jcmd failed. */
  static OptionalLong measure(long pid) {
    try {
      jcmd(pid, "GC.run");
      return usedBytes(jcmd(pid, "GC.heap_info"));
    } catch (IOException | RuntimeException e) {
      BenchOut.say("jcmd on pid %d failed: %s", pid, e);
      return OptionalLong.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return OptionalLong.empty();
    }
  }

  /** The heap bytes in use that {@code GC.heap_info} reports: its "total …, used …K" lines. */
  static OptionalLong usedBytes(String heapInfo) {
    long usedKb = 0;
    boolean any = false;
    for (String line : heapInfo.split("\r?\n")) {
      if (!line.contains(" total ") || line.trim().startsWith("Metaspace")) {
        continue;
      }
      Matcher m = USED.matcher(line);
      if (m.find()) {
        usedKb += Long.parseLong(m.group(1));
        any = true;
      }
    }
    return any ? OptionalLong.of(usedKb * 1024) : OptionalLong.empty();
  }

  private static String jcmd(long pid, String command) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Path out = Files.createTempFile("kairos-jcmd-", ".txt");
    try {
      Process p =
          new ProcessBuilder(List.of(jcmd.toString(), Long.toString(pid), command))
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .start();
      if (!p.waitFor(JCMD_TIMEOUT_S, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(
            "jcmd " + command + " on " + pid + " took over " + JCMD_TIMEOUT_S + " s");
      }
      String text = Files.readString(out, StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        throw new IOException(
            "jcmd " + command + " on " + pid + " exited " + p.exitValue() + ": " + text);
      }
      return text;
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
