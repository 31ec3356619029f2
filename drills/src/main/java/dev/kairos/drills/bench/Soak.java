package dev.kairos.drills.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Redis memory soak ({@code --soak-min}): {@code --soak-jobs} jobs of {@code --soak-workload}
 * fire for that many minutes on a cluster that ran nothing before; every minute, Redis' {@code
 * used_memory} and {@code DBSIZE}, the fires due and the handler starts logged in that minute, and
 * the CPU per start. Trigger records live until their fire time plus the 10-minute de-duplication
 * window, so Redis' memory levels off after about ten minutes of a steady rate: the last minute of
 * a 15-minute soak is the figure "Redis memory at this rate".
 */
final class Soak {

  /** One minute of the soak, read at its end. */
  record Minute(
      int minute,
      long atMs,
      RedisMemory memory,
      long firesDue,
      long startsLogged,
      CpuMeter.Usage cpu,
      double load) {

    static String header() {
      return "| minute | at (UTC) | Redis used_memory MB | Redis keys | history sync behind s "
          + "| fires due | starts logged | CPU µs/start (processes) | machine busy µs/start "
          + "| load 1 min |\n"
          + "|---|---|---|---|---|---|---|---|---|---|";
    }

    String line() {
      return String.format(
          Locale.ROOT,
          "| %d | %s | %s | %s | %s | %,d | %,d | %,.0f | %,.0f | %.2f |",
          minute,
          Instant.ofEpochMilli(atMs),
          memory.usedMegabytes(),
          memory.keysText(),
          memory.syncBehindText(),
          firesDue,
          startsLogged,
          KeepUp.microsPerFire(cpu.processTotalMicros(), startsLogged),
          KeepUp.microsPerFire(cpu.machineBusyMicros(), startsLogged),
          load);
    }
  }

  /** The whole soak: Redis before the first minute, then every minute. */
  record Report(Workload workload, int jobs, RedisMemory atStart, List<Minute> minutes) {}

  private Soak() {}

  /** Creates the soak's jobs (their ids go into {@code ids}), runs it and reports every minute. */
  static Report run(BenchCluster cluster, ClusterBenchOptions options, List<String> ids)
      throws InterruptedException {
    Workload workload = options.soakWorkload();
    int jobs = options.soakJobs();
    for (int i = 0; i < jobs; i++) {
      ids.add("soak-" + workload.name().toLowerCase() + "-" + i);
    }
    RecurringRow.Created created = RecurringRow.create(cluster, workload, ids, "SOAK");
    RecurringRow.awaitClaimed(cluster, ids, "SOAK");
    long t0 = WallClock.sleepUntil(WallClock.nextWholeSecond(System.currentTimeMillis()));
    StartLogTail tail = new StartLogTail(cluster.executors());
    CpuMeter.Sample previous = cluster.meter().sample();
    RedisMemory atStart = cluster.memory();
    BenchOut.say(
        "SOAK %d jobs of %s for %d min from %s: %s",
        jobs, workload, options.soakMinutes(), Instant.ofEpochMilli(t0), atStart);
    List<Minute> minutes = new ArrayList<>();
    Map<String, Long> anchors = created.createdMs();
    for (int k = 1; k <= options.soakMinutes(); k++) {
      long end = WallClock.sleepUntil(t0 + k * 60_000L);
      CpuMeter.Sample sample = cluster.meter().sample();
      long starts = tail.newLines();
      Minute minute =
          new Minute(
              k,
              end,
              cluster.memory(),
              workload.expectedFires(anchors, end - 60_000, end).size(),
              starts,
              cluster.meter().between(previous, sample),
              ProcStat.readLoadAverage1());
      previous = sample;
      minutes.add(minute);
      BenchOut.say("SOAK %s", minute.line());
    }
    Minute last = minutes.get(minutes.size() - 1);
    BenchOut.say(
        "SOAK end after %d min of %d %s jobs: %s (at the start: %s)",
        options.soakMinutes(), jobs, workload, last.memory(), atStart);
    return new Report(workload, jobs, atStart, minutes);
  }
}
