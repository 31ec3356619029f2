package dev.kairos.drills.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * One measured row of {@link ClusterBench}: a workload at J jobs over one window.
 *
 * @param createdSeconds wall time of the import calls that created the J jobs
 * @param busiestBand W1: most jobs whose phase fell in one 10 ms band of the second (even spread =
 *     J/100); W2, M1, MIDNIGHT: J (all on the same instant)
 * @param expected fires of the window, computed from the schedules
 * @param executed expected fires that started (handler log or start claim) before the drain ended
 * @param missed expected fires with no start within the drain (at most 60 s after the window)
 * @param duplicates expected fires whose handler started more than once
 * @param early expected fires whose first start was before their scheduled time
 * @param startsInWindow handler starts logged inside the window, of any fire: the work the CPU
 *     figures pay for
 * @param ackBeforeFire how far ahead of the scheduled fire the broker ack was recorded ({@code
 *     dispatchedMs}: about the node's pre-dispatch lead; a late send counts as 0)
 * @param fireToClaim scheduled fire → the executor's start claim ({@code startedMs})
 * @param claimToHandler start claim → the handler's own first line (start log)
 * @param memory Redis {@code used_memory}, {@code DBSIZE} and how far persistence-sync trails, at
 *     the row's end (after the drain, before its jobs are deleted)
 */
record BenchRow(
    Workload workload,
    int jobs,
    double createdSeconds,
    int importCalls,
    int busiestBand,
    long windowSeconds,
    long expected,
    long executed,
    long missed,
    long duplicates,
    long early,
    Dist lateness,
    long startsInWindow,
    Dist ackBeforeFire,
    Dist fireToClaim,
    Dist claimToHandler,
    CpuMeter.Usage cpu,
    RedisMemory memory,
    double loadBefore,
    double loadAfter) {

  boolean keepsUp() {
    return KeepUp.keepsUp(expected, missed, executed, lateness.p99());
  }

  double firesPerSecond() {
    return windowSeconds == 0 ? 0 : (double) startsInWindow / windowSeconds;
  }

  double processMicrosPerFire() {
    return KeepUp.microsPerFire(cpu.processTotalMicros(), startsInWindow);
  }

  double machineBusyMicrosPerFire() {
    return KeepUp.microsPerFire(cpu.machineBusyMicros(), startsInWindow);
  }

  static String mainHeader() {
    return "| workload | jobs | created in s | busiest 10 ms | expected | executed | missed | dup. | early "
        + "| p50 ms | p90 | p99 | max | fires/s | ack before fire p50 / p99 ms "
        + "| fire→start claim p50 / p99 | claim→handler p50 / p99 "
        + "| CPU µs/fire (processes) | machine busy µs/fire | Redis used_memory MB | Redis keys "
        + "| history sync behind s | load 1 min before → after | keeps up |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
        + "---|---|---|";
  }

  String mainLine() {
    return String.format(
        Locale.ROOT,
        "| %s | %,d | %.1f | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %,.0f | %s | %s"
            + " | %s | %,.0f | %,.0f | %s | %s | %s | %.2f → %.2f | %s |",
        workload,
        jobs,
        createdSeconds,
        busiestBand,
        expected,
        executed,
        missed,
        duplicates,
        early,
        lateness.p50(),
        lateness.p90(),
        lateness.p99(),
        lateness.max(),
        firesPerSecond(),
        ackBeforeFire.p50p99(),
        fireToClaim.p50p99(),
        claimToHandler.p50p99(),
        processMicrosPerFire(),
        machineBusyMicrosPerFire(),
        memory.usedMegabytes(),
        memory.keysText(),
        memory.syncBehindText(),
        loadBefore,
        loadAfter,
        keepsUp() ? "yes" : "**no**");
  }

  /** The stages in full, with how many samples were negative (recorded as 0). */
  String stagesLine() {
    return workload
        + " "
        + jobs
        + ": lateness "
        + lateness
        + "; ack before fire "
        + ackBeforeFire
        + "; fire→start claim "
        + fireToClaim
        + "; claim→handler "
        + claimToHandler;
  }

  static String cpuHeader(List<String> processes) {
    return perProcessHeader(processes, "", "all processes", "machine busy (/proc/stat)");
  }

  /** CPU seconds over the window and µs per fire, per process. */
  String cpuLine() {
    return perProcessLine(
        cpu.processMicros(),
        this::cell,
        cell(cpu.processTotalMicros()),
        cell(cpu.machineBusyMicros()));
  }

  /**
   * The JIT compiler threads' share of each process's CPU over the window: transient work a
   * long-running deployment no longer does, so the steady state is the total minus it.
   */
  String jitLine() {
    return perProcessLine(
        cpu.jitMicros(),
        this::cell,
        cell(cpu.jitTotalMicros()),
        cell(cpu.processTotalMicros() - cpu.jitTotalMicros()));
  }

  static String jitHeader(List<String> processes) {
    return perProcessHeader(processes, " JIT", "all JIT", "all processes without JIT");
  }

  /**
   * Context switches per fire started in the window, per process: the wake-ups each fire costs as
   * it is handed from thread to thread and process to process. Unlike CPU time it does not depend
   * on how fast the machine runs this hour, so it shows batching changes through the noise.
   */
  String switchesLine() {
    return perProcessLine(cpu.switches(), this::perFire, perFire(cpu.switchesTotal()));
  }

  static String switchesHeader(List<String> processes) {
    return perProcessHeader(processes, "", "all processes");
  }

  /** A table header: the row's keys, one column per process, then the summary columns. */
  private static String perProcessHeader(
      List<String> processes, String processSuffix, String... summaries) {
    StringBuilder b = new StringBuilder("| workload | jobs | starts in window");
    processes.forEach(p -> b.append(" | ").append(p).append(processSuffix));
    for (String summary : summaries) {
      b.append(" | ").append(summary);
    }
    b.append(" |\n|---|---|---");
    b.append("|---".repeat(processes.size() + summaries.length)).append('|');
    return b.toString();
  }

  /** A table line: the row's keys, one cell per process, then the summary cells. */
  private String perProcessLine(
      Map<String, Long> perProcess, LongFunction<String> format, String... summaries) {
    StringBuilder b =
        new StringBuilder(
            String.format(Locale.ROOT, "| %s | %,d | %,d", workload, jobs, startsInWindow));
    for (long value : perProcess.values()) {
      b.append(" | ").append(format.apply(value));
    }
    for (String summary : summaries) {
      b.append(" | ").append(summary);
    }
    return b.append(" |").toString();
  }

  private String perFire(long count) {
    return String.format(
        Locale.ROOT, "%.1f", startsInWindow == 0 ? 0.0 : (double) count / startsInWindow);
  }

  private String cell(long micros) {
    return String.format(
        Locale.ROOT,
        "%.2f s (%,.0f µs)",
        micros / 1e6,
        KeepUp.microsPerFire(micros, startsInWindow));
  }
}
