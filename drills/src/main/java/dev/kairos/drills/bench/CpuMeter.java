package dev.kairos.drills.bench;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU time of named processes and of the whole machine between two {@link #sample()}s, from {@code
 * /proc}. A process that is gone at a sample reads as absent and its delta as 0 (reported, never
 * guessed).
 */
public final class CpuMeter {

  /** One reading: ticks per process name (absent if the process was gone), machine ticks. */
  public record Sample(Map<String, Long> processTicks, ProcStat.MachineTicks machine) {}

  /**
   * CPU over an interval in µs: per process (in the meter's order), and the machine's busy time.
   */
  public record Usage(Map<String, Long> processMicros, long machineBusyMicros, long machineMicros) {

    /** Sum over the named processes. */
    public long processTotalMicros() {
      return processMicros.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private final Map<String, Long> pids;
  private final long ticksPerSecond;

  /**
   * @param pids process name → pid, in the order the report lists them
   * @param ticksPerSecond {@link ProcStat#clockTicksPerSecond()}
   */
  public CpuMeter(Map<String, Long> pids, long ticksPerSecond) {
    this.pids = new LinkedHashMap<>(pids);
    this.ticksPerSecond = ticksPerSecond;
  }

  /** Process name → pid, in the meter's order. */
  public Map<String, Long> pids() {
    return Collections.unmodifiableMap(pids);
  }

  public Sample sample() {
    Map<String, Long> ticks = new LinkedHashMap<>();
    pids.forEach((name, pid) -> ProcStat.readProcessTicks(pid).ifPresent(t -> ticks.put(name, t)));
    return new Sample(ticks, ProcStat.readMachineTicks());
  }

  /** What was used between {@code before} and {@code after}. */
  public Usage between(Sample before, Sample after) {
    Map<String, Long> micros = new LinkedHashMap<>();
    for (String name : pids.keySet()) {
      Long a = before.processTicks().get(name);
      Long b = after.processTicks().get(name);
      micros.put(name, a == null || b == null ? 0 : ticksToMicros(b - a, ticksPerSecond));
    }
    return new Usage(
        micros,
        ticksToMicros(after.machine().busy() - before.machine().busy(), ticksPerSecond),
        ticksToMicros(after.machine().total() - before.machine().total(), ticksPerSecond));
  }

  static long ticksToMicros(long ticks, long ticksPerSecond) {
    return ticks * 1_000_000L / ticksPerSecond;
  }
}
