package dev.kairos.drills.bench;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * CPU time of named processes and of the whole machine between two {@link #sample()}s, from {@code
 * /proc}. A process that is gone at a sample reads as absent and its delta as 0 (reported, never
 * guessed). A name registered as a tree (PostgreSQL's postmaster) counts the process and all its
 * descendants ({@link ProcStat#readTreeTicks}).
 */
public final class CpuMeter {

  /**
   * One reading: ticks per process name (absent if the process was gone), ticks of each process's
   * JIT compiler threads by thread id, context switches per process name (summed over its live
   * threads), machine ticks.
   */
  public record Sample(
      Map<String, Long> processTicks,
      Map<String, Map<Long, Long>> jitTicks,
      Map<String, Long> switches,
      ProcStat.MachineTicks machine) {}

  /**
   * CPU over an interval in µs: per process (in the meter's order), the part of it its JIT compiler
   * threads spent (0 for a process that is not a JVM), its threads' context switches, and the
   * machine's busy time.
   */
  public record Usage(
      Map<String, Long> processMicros,
      Map<String, Long> jitMicros,
      Map<String, Long> switches,
      long machineBusyMicros,
      long machineMicros) {

    /** Sum over the named processes. */
    public long processTotalMicros() {
      return processMicros.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Context switches summed over the named processes. */
    public long switchesTotal() {
      return switches.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Sum of the JIT compiler threads' share over the named processes. */
    public long jitTotalMicros() {
      return jitMicros.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private final Map<String, Long> pids;
  private final Set<String> trees;
  private final long ticksPerSecond;

  /**
   * @param pids process name → pid, in the order the report lists them
   * @param ticksPerSecond {@link ProcStat#clockTicksPerSecond()}
   */
  public CpuMeter(Map<String, Long> pids, long ticksPerSecond) {
    this(pids, Set.of(), ticksPerSecond);
  }

  /**
   * @param trees names among {@code pids} whose process counts with all its descendants (no JIT)
   */
  public CpuMeter(Map<String, Long> pids, Set<String> trees, long ticksPerSecond) {
    this.pids = new LinkedHashMap<>(pids);
    this.trees = Set.copyOf(trees);
    this.ticksPerSecond = ticksPerSecond;
  }

  /** Process name → pid, in the meter's order. */
  public Map<String, Long> pids() {
    return Collections.unmodifiableMap(pids);
  }

  public Sample sample() {
    Map<String, Long> ticks = new LinkedHashMap<>();
    Map<String, Map<Long, Long>> jit = new LinkedHashMap<>();
    Map<String, Long> switches = new LinkedHashMap<>();
    pids.forEach(
        (name, pid) -> {
          if (trees.contains(name)) {
            ProcStat.readTreeTicks(pid).ifPresent(t -> ticks.put(name, t));
            jit.put(name, Map.of());
            ProcStat.readTreeContextSwitches(pid).ifPresent(n -> switches.put(name, n));
            return;
          }
          ProcStat.readProcessTicks(pid).ifPresent(t -> ticks.put(name, t));
          jit.put(name, ProcStat.readJitThreadTicks(pid));
          ProcStat.readContextSwitches(pid).ifPresent(n -> switches.put(name, n));
        });
    return new Sample(ticks, jit, switches, ProcStat.readMachineTicks());
  }

  /** What was used between {@code before} and {@code after}. */
  public Usage between(Sample before, Sample after) {
    Map<String, Long> micros = new LinkedHashMap<>();
    Map<String, Long> jit = new LinkedHashMap<>();
    Map<String, Long> switches = new LinkedHashMap<>();
    for (String name : pids.keySet()) {
      Long a = before.processTicks().get(name);
      Long b = after.processTicks().get(name);
      micros.put(name, a == null || b == null ? 0 : ticksToMicros(b - a, ticksPerSecond));
      Long sa = before.switches().get(name);
      Long sb = after.switches().get(name);
      switches.put(name, sa == null || sb == null ? 0 : Math.max(0, sb - sa));
      jit.put(
          name,
          ticksToMicros(
              jitDelta(
                  before.jitTicks().getOrDefault(name, Map.of()),
                  after.jitTicks().getOrDefault(name, Map.of())),
              ticksPerSecond));
    }
    return new Usage(
        micros,
        jit,
        switches,
        ticksToMicros(after.machine().busy() - before.machine().busy(), ticksPerSecond),
        ticksToMicros(after.machine().total() - before.machine().total(), ticksPerSecond));
  }

  /**
   * Ticks the compiler threads spent between two readings: a thread born in between counts from 0;
   * one that ended in between is lost (child JVMs keep theirs alive, see {@link ProcStat}).
   */
  static long jitDelta(Map<Long, Long> before, Map<Long, Long> after) {
    long sum = 0;
    for (Map.Entry<Long, Long> e : after.entrySet()) {
      sum += e.getValue() - before.getOrDefault(e.getKey(), 0L);
    }
    return sum;
  }

  static long ticksToMicros(long ticks, long ticksPerSecond) {
    return ticks * 1_000_000L / ticksPerSecond;
  }
}
