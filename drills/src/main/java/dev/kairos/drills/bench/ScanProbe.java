package dev.kairos.drills.bench;

import dev.kairos.drills.DrillNode;
import dev.kairos.drills.PrometheusText;
import dev.kairos.drills.StartLedger;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One minute of a level, from 30 s before a whole minute to 30 s after it: the leader's scan passes
 * over it ({@code kairos.scan.pass.duration}, passes and fires claimed, from the leader's
 * Prometheus text at both ends), the CPU of every process (Redis' per pass), Redis' {@code
 * ZRANGEBYSCORE} time per call (the due-set reads, which a pass makes once per shard and which grow
 * with log N), and how the window's fires started: every stored job's fires in it, and the
 * top-of-minute burst apart.
 */
final class ScanProbe {

  /** The leader's scan-pass timer ({@code kairos.scan.pass.duration}), as Prometheus names it. */
  static final String PASS_TIMER = "kairos_scan_pass_duration_seconds";

  /** The leader's count of fires its passes claimed ({@code kairos.claims.fires}). */
  static final String CLAIMED_FIRES = "kairos_claims_fires_total";

  private static final long HALF_WINDOW_MS = 30_000;
  private static final long MIN_LEAD_MS = 10_000;
  private static final long DRAIN_CAP_MS = 90_000;

  /** What the minute measured. */
  record Result(
      long minuteMs,
      long fromMs,
      long toMs,
      double passes,
      double passP50Ms,
      double passP99Ms,
      double passMeanMs,
      double firesClaimed,
      long redisCpuMicros,
      double zrangeUsecPerCall,
      FireOutcome window,
      FireOutcome burst,
      long burstAllStartedAfterMs,
      double loadBefore,
      double loadAfter) {

    double firesPerPass() {
      return passes <= 0 ? Double.NaN : firesClaimed / passes;
    }

    double redisCpuMillisPerPass() {
      return passes <= 0 ? Double.NaN : redisCpuMicros / 1000.0 / passes;
    }
  }

  private ScanProbe() {}

  /** Measures the first whole minute at least 40 s away. */
  static Result run(BenchCluster cluster, ScaleStore store, String label)
      throws InterruptedException {
    long now = System.currentTimeMillis();
    long minute = Math.floorDiv(now + HALF_WINDOW_MS + MIN_LEAD_MS, 60_000) * 60_000 + 60_000;
    long from = minute - HALF_WINDOW_MS;
    long to = minute + HALF_WINDOW_MS;
    BenchOut.say(
        "%s: scan and burst window [%d, %d), the burst at %s",
        label, from, to, Instant.ofEpochMilli(minute));
    DrillNode leader = cluster.leader();
    WallClock.sleepUntil(from - 1_000);
    double loadBefore = ProcStat.readLoadAverage1();
    WallClock.sleepUntil(from);
    String before = leader.probe().prometheus();
    Window.Open open = Window.open(cluster, from);
    WallClock.sleepUntil(to);
    String after = leader.probe().prometheus();
    Window.Measured measured = open.close(to, cluster.meter().sample());
    PromHistogram passes =
        PromHistogram.parse(after, PASS_TIMER).minus(PromHistogram.parse(before, PASS_TIMER));
    double claimed =
        PrometheusText.sum(after, CLAIMED_FIRES, Map.of())
            - PrometheusText.sum(before, CLAIMED_FIRES, Map.of());
    measured.report(label, Math.max(1, (long) claimed));
    List<String> expected = store.expectedFires(from, to);
    List<String> burst = store.minuteBurst(minute);
    BenchOut.say(
        "%s: %d passes, %d fires claimed, %d fires expected in the window (%d in the burst);"
            + " draining (cap %d s)",
        label,
        (long) passes.count(),
        (long) claimed,
        expected.size(),
        burst.size(),
        DRAIN_CAP_MS / 1000);
    StartLedger.Outcome outcome = cluster.drain(expected, to + DRAIN_CAP_MS);
    FireOutcome burstOutcome = FireOutcome.of(outcome, burst);
    long allStarted =
        burst.isEmpty() ? -1 : Burst.of(burst, outcome.firstStartMs()).get(0).allStartedAfterMs();
    Long redisCpu = measured.cpu().processMicros().get("redis-server");
    return new Result(
        minute,
        from,
        to,
        passes.count(),
        passes.quantileMillis(0.5),
        passes.quantileMillis(0.99),
        passes.meanMillis(),
        claimed,
        redisCpu == null ? 0 : redisCpu,
        zrangeUsecPerCall(measured.commands()),
        FireOutcome.of(outcome),
        burstOutcome,
        allStarted,
        loadBefore,
        ProcStat.readLoadAverage1());
  }

  private static double zrangeUsecPerCall(RedisCommandStats stats) {
    return stats.commands().stream()
        .filter(c -> c.name().equals("zrangebyscore"))
        .findFirst()
        .map(c -> c.calls() == 0 ? Double.NaN : c.usec() / (double) c.calls())
        .orElse(Double.NaN);
  }
}
