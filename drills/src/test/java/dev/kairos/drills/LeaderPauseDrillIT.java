package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.redis.RedisKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/design.md "Leadership": a paused JVM (GC, SIGSTOP) can outlive its leadership and wake up
 * believing it leads; only the fence in Redis stops its writes. SIGSTOP the leader past the leader
 * timeout and its ZooKeeper session, let a new leader take over, SIGCONT: no claim of the old term
 * lands after the takeover (whatever it attempts hits the higher fence, counted and reported), it
 * steps down, and nothing starts twice.
 */
class LeaderPauseDrillIT extends DrillBase {

  /** Past the 6 s session timeout: the paused leader wakes up with its session gone. */
  private static final Duration PAUSE = Duration.ofSeconds(8);

  @Test
  void pausedLeaderWakesUpFencedOutStepsDownAndNothingStartsTwice() throws Exception {
    long from = System.currentTimeMillis() + 2_000;
    letRun(BEFORE_FAULT);
    DrillNode old = leader(cluster.nodes());
    long oldTerm = old.probe().cluster().term();
    double rejectionsBefore = old.probe().metric("kairos_fence_rejections_total");
    // Its step-downs so far (a shared cluster ran other drills before): this drill counts its own.
    double stepdownsBefore = old.probe().metric("kairos_election_stepdowns_total");

    // Pause just after a scan pass completed: on SIGCONT the next pass is due at once, with no
    // Redis call of the old term left in flight to time out.
    double passes = old.probe().metric("kairos_scan_passes_total");
    Polling.until(
        TAKEOVER_DEADLINE,
        old.name() + " completes a scan pass",
        () -> old.probe().metric("kairos_scan_passes_total") > passes);
    long pausedAt = System.currentTimeMillis();
    old.process().pause();
    DrillNode next = leader(except(old));
    long newTerm = next.probe().cluster().term();
    long newFirstScanMs = next.probe().cluster().firstScanMs();
    long takeoverMs = newFirstScanMs - pausedAt;
    // docs/design.md "a new leader fences every shard before its first scan": whatever the old term
    // still
    // sends once it wakes is rejected by every shard, not by some.
    List<Integer> unfenced = shardsFencedBelow(newTerm);
    letRun(
        Duration.ofMillis(Math.max(0, pausedAt + PAUSE.toMillis() - System.currentTimeMillis())));
    old.process().resume();
    long resumedAt = System.currentTimeMillis();

    NodeProbe.ClusterView woke =
        Polling.value(
            TAKEOVER_DEADLINE,
            old.name() + " follows term " + newTerm,
            () -> {
              NodeProbe.ClusterView v = old.probe().cluster();
              return !v.isLeader() && v.term() >= newTerm && v.scanningTerm() == 0
                  ? Optional.of(v)
                  : Optional.empty();
            });
    double rejections = old.probe().metric("kairos_fence_rejections_total") - rejectionsBefore;
    double stepdowns = old.probe().metric("kairos_election_stepdowns_total") - stepdownsBefore;
    String reasons =
        Stream.of("fence", "higher-term", "zookeeper-suspended", "zookeeper-lost")
            .map(
                r ->
                    r
                        + "="
                        + old.probe()
                            .metric("kairos_election_stepdowns_total", Map.of("reason", r)))
            .collect(Collectors.joining(" "));

    letRun(AFTER_RECOVERY);
    long to = System.currentTimeMillis();
    StartLedger.Outcome outcome =
        ledger.awaitStarts(jobs, from, to, cluster.executors(), STARTS_STALL, STARTS_CAP);
    report("leader-pause", from, pausedAt, resumedAt, to, outcome);
    // Every fire the old term could have claimed after the takeover (pre-read included).
    List<String> staleClaims =
        ledger.claimedByTermSince(
            jobs.expectedTriggerIds(pausedAt, to + 10_000), oldTerm, newFirstScanMs);
    log.info(
        "DRILL leader-pause: paused {} (term {}) for {} ms; {} leads term {} ({} ms after the"
            + " pause, every shard fenced at it: {}); after SIGCONT {} follows term {}: fence"
            + " rejections {}, step-downs {} ({});"
            + " fires due during the pause {}; window {}",
        old.name(),
        oldTerm,
        resumedAt - pausedAt,
        next.name(),
        newTerm,
        takeoverMs,
        unfenced.isEmpty(),
        old.name(),
        woke.term(),
        rejections,
        stepdowns,
        reasons,
        outcome.latenessOf(jobs.expectedTriggerIds(pausedAt, resumedAt)),
        outcome.summary());
    logDispatchLateness("leader-pause", from, to);

    assertThat(newTerm).isGreaterThan(oldTerm);
    assertThat(unfenced).as("shards not fenced at the new term when the old leader woke").isEmpty();
    assertThat(stepdowns).as("the old leader stepped down").isGreaterThanOrEqualTo(1);
    // The fence is the backstop, not the only way out: on SIGCONT the old leader's scan pass races
    // its heartbeat round (a follower's reply carries the higher term) and its ZooKeeper client
    // (session expired). Whichever wins, no claim of the old term may land after the takeover;
    // the rejections are reported, and counted > 0 by DueFireScannerIT and FailoverSweepIT.
    assertThat(staleClaims).as("fires claimed by the old term after the takeover").isEmpty();
    assertThat(outcome.duplicates()).as("trigger ids started twice").isEmpty();
    assertThat(outcome.early()).as("fires started before their time").isEmpty();
    assertNoneMissed(outcome.missed(), "expected fires with no start");
  }

  /** Shards whose fence in Redis is below {@code term}. */
  private static List<Integer> shardsFencedBelow(long term) {
    List<Integer> below = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      String fence = redis.sync().get(RedisKeys.fence(shard));
      if (fence == null || Long.parseLong(fence) < term) {
        below.add(shard);
      }
    }
    return below;
  }
}
