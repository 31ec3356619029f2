package dev.kairos.protocol.adhoc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.claim.AdhocClaim;
import dev.kairos.protocol.claim.ClaimBatch;
import dev.kairos.protocol.record.EndedCompaction;
import dev.kairos.protocol.start.CompletionOutcome;
import dev.kairos.protocol.start.StartOutcome;
import dev.kairos.protocol.start.StartRequest;
import dev.kairos.protocol.start.TriggerRecords;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A backfill fire through the protocol (docs/protocol.md "Backfill fires"): its id {@code
 * <jobId>:<historicalMs>:b} carries the historical fire time, while the ad-hoc trigger is due NOW,
 * so its record, start claim, dedup and expiry all count from now, as for any ad-hoc trigger, and
 * its SUCCESS is never compacted into a tombstone bucket of the (long gone) historical time.
 */
@RealInfra(redis = RedisMode.CLUSTER)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BackfillTriggerIT {

  private static final Duration D = Duration.ofMinutes(10);
  private static final long THIRTY_DAYS = Duration.ofDays(30).toMillis();

  private final EmbeddedRedisCluster cluster;
  private final RedisKeys keys = new RedisKeys(16);
  // claim_start and complete_trigger read Redis' TIME: the claim must use the real now too.
  private final SettableClock clock = new SettableClock(System.currentTimeMillis());
  private KairosRedis redis;
  private JobStore jobs;
  private AdhocTriggers adhoc;
  private TriggerRecords records;

  BackfillTriggerIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeAll
  void connect() {
    redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5));
    jobs = new JobStore(redis, keys, clock, 1_000);
    adhoc = new AdhocTriggers(redis, keys, clock);
    records = new TriggerRecords(redis, keys, D, TriggerRecords.DEFAULT_EVENTS_MAX_LEN);
  }

  @AfterAll
  void disconnect() {
    redis.close();
  }

  private String newJob() {
    String id = "bf-" + UUID.randomUUID().toString().substring(0, 8);
    jobs.create(JobDefinition.builder(id).app("billing").handler("report").build());
    return id;
  }

  private void claim(String job, TriggerId id, long dueMs) {
    long now = System.currentTimeMillis();
    clock.set(now);
    var outcome =
        new ClaimBatch(keys.shardOf(job), 1, now, D.toMillis())
            .add(new AdhocClaim(id.value(), job, dueMs, "node-a"))
            .send(redis.async())
            .toCompletableFuture()
            .join();
    assertThat(outcome.adhocClaimed(0)).as("claimed " + id).isTrue();
  }

  private Map<String, String> record(String job, TriggerId id) {
    return redis.sync().hgetall(RedisKeys.trigger(keys.shardOf(job), id.value()));
  }

  @Test
  void aBackfillFireDueNowStartsOnceAndItsRecordOutlivesItsEndByTheDedupWindow() {
    String job = newJob();
    long now = System.currentTimeMillis();
    clock.set(now);
    TriggerId id = TriggerId.backfill(job, now - THIRTY_DAYS);
    AdhocRequest request = AdhocRequest.manual(id, now, Optional.empty());

    assertThat(adhoc.submit(request).outcome()).isEqualTo(AdhocSubmission.Outcome.ACCEPTED);
    claim(job, id, now);

    Map<String, String> claimed = record(job, id);
    assertThat(Long.parseLong(claimed.get("fireMs"))).isEqualTo(now);
    assertThat(claimed).containsEntry("kind", "MANUAL").containsEntry("state", "CLAIMED");
    String key = RedisKeys.trigger(keys.shardOf(job), id.value());
    assertThat(redis.sync().pttl(key)).isBetween(D.toMillis() - 10_000, D.toMillis() + 10_000);

    StartOutcome started =
        records.claimStart(new StartRequest(id.value(), job, now, 1, 0, "exec-1", 0, now));
    StartOutcome again =
        records.claimStart(new StartRequest(id.value(), job, now, 1, 0, "exec-2", 1, now));
    assertThat(started.kind()).isEqualTo(StartOutcome.Kind.STARTED);
    assertThat(again.kind()).isEqualTo(StartOutcome.Kind.DUPLICATE);

    CompletionOutcome done =
        records.complete(id.value(), job, id.fireMs(), "exec-1", TriggerState.SUCCESS, "");
    assertThat(done.kind()).isEqualTo(CompletionOutcome.Kind.COMPLETED);
    long compacted =
        new EndedCompaction(redis, D)
                .compact(keys.shardOf(job), List.of(new EndedCompaction.Ended(id.value(), now)))
                .stream()
                .mapToLong(s -> s.toCompletableFuture().join())
                .sum();

    assertThat(compacted).as("an ad-hoc SUCCESS keeps its record").isZero();
    assertThat(record(job, id)).containsEntry("state", "SUCCESS");
    assertThat(redis.sync().pttl(key)).isBetween(D.toMillis() - 10_000, D.toMillis() + 10_000);
    assertThat(adhoc.submit(request).outcome()).isEqualTo(AdhocSubmission.Outcome.DUPLICATE);
  }

  @Test
  void dueAtItsHistoricalTimeInsteadItWouldNeverStart() {
    // Why the backfill submits its fires due now: a record whose fire time is more than D old is
    // refused by the start claim (EXPIRED), so a historical due time would run nothing.
    String job = newJob();
    long now = System.currentTimeMillis();
    long historical = now - THIRTY_DAYS;
    TriggerId id = TriggerId.backfill(job, historical);
    assertThat(adhoc.submit(AdhocRequest.manual(id, historical, Optional.empty())).outcome())
        .isEqualTo(AdhocSubmission.Outcome.ACCEPTED);
    claim(job, id, historical);

    StartOutcome start =
        records.claimStart(new StartRequest(id.value(), job, historical, 1, 0, "exec-1", 0, now));

    assertThat(start.kind()).isEqualTo(StartOutcome.Kind.EXPIRED);
  }
}
