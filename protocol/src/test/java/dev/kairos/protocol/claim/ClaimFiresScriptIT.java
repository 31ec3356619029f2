package dev.kairos.protocol.claim;

import static dev.kairos.protocol.ClusterFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.calendar.SkippedFire;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.schedule.NextDue;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.ClusterFixture;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RealInfra(redis = RedisMode.CLUSTER)
class ClaimFiresScriptIT {

  private final EmbeddedRedisCluster cluster;
  private ClusterFixture fx;
  private int shard;

  ClaimFiresScriptIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeEach
  void connect() {
    fx = new ClusterFixture(cluster, 4);
    JobDefinition job =
        JobDefinition.builder("j")
            .app("app")
            .handler("h")
            .fixedRate(1_000)
            .createdMs(T0)
            .scheduleVersion(3)
            .build();
    fx.putJob(job, T0);
    shard = fx.keys.shardOf("j");
  }

  @AfterEach
  void disconnect() {
    fx.close();
  }

  private ClaimOutcome claim(long term, long expectedScore, long version, long... fires) {
    List<Fire> list = Arrays.stream(fires).mapToObj(ms -> new Fire(ms, "n1")).toList();
    ClaimBatch batch =
        new ClaimBatch(shard, term, T0, 600_000)
            .add(new JobClaim("j", expectedScore, version, NextDue.at(T0 + 5_000), list));
    return batch.send(fx.redis.async()).toCompletableFuture().join();
  }

  private ClaimOutcome claimSkipping(long expectedScore, List<Long> fires, List<Long> skipped) {
    ClaimBatch batch =
        new ClaimBatch(shard, 1, T0, 600_000, 1_000)
            .add(
                new JobClaim(
                    "j",
                    expectedScore,
                    3,
                    NextDue.at(T0 + 5_000),
                    fires.stream().map(ms -> new Fire(ms, "n1")).toList(),
                    skipped.stream().map(ms -> new SkippedFire(ms, "holidays")).toList()));
    return batch.send(fx.redis.async()).toCompletableFuture().join();
  }

  @Test
  void firesACalendarExcludesAreRecordedSkippedWithTheirEndEventAndNeverReachAWheel() {
    ClaimOutcome outcome =
        claimSkipping(T0, List.of(T0, T0 + 3_000), List.of(T0 + 1_000, T0 + 2_000));
    assertThat(outcome.perJob()).containsExactly(2);
    assertThat(outcome.skippedRecorded()).isEqualTo(2);
    assertThat(fx.wheel("n1")).containsOnlyKeys("j:" + T0, "j:" + (T0 + 3_000));
    assertThat(fx.trigger("j:" + (T0 + 1_000)))
        .containsEntry("state", "SKIPPED")
        .containsEntry("calendar", "holidays")
        .containsEntry("scheduleVersion", "3")
        .containsEntry("endedMs", Long.toString(T0))
        .containsKey("message");
    assertThat(fx.redis.sync().pttl(RedisKeys.trigger(shard, "j:" + (T0 + 1_000)))).isPositive();
    assertThat(fx.redis.sync().zrange(RedisKeys.jobTriggers(shard, "j"), 0, -1))
        .containsExactly("j:" + T0, "j:" + (T0 + 1_000), "j:" + (T0 + 2_000), "j:" + (T0 + 3_000));
    assertThat(fx.events(shard))
        .hasSize(2)
        .allSatisfy(
            e ->
                assertThat(e)
                    .containsEntry("type", "TRIGGER_ENDED")
                    .containsEntry("state", "SKIPPED")
                    .containsEntry("jobId", "j")
                    .containsKey("ms"));
    assertThat(fx.dueScore("j")).isEqualTo((double) (T0 + 5_000));
  }

  @Test
  void aSkipIsRecordedOnceAndNotOverAnExistingRecord() {
    claimSkipping(T0, List.of(T0), List.of());
    fx.redis.sync().zadd(RedisKeys.due(shard), T0, "j");
    ClaimOutcome again = claimSkipping(T0, List.of(), List.of(T0, T0 + 1_000));
    assertThat(again.skippedRecorded()).isEqualTo(1);
    assertThat(fx.trigger("j:" + T0)).containsEntry("state", "CLAIMED");
    assertThat(fx.trigger("j:" + (T0 + 1_000))).containsEntry("state", "SKIPPED");
  }

  @Test
  void noSkipIsRecordedForAJobTheCasSkipped() {
    ClaimOutcome outcome = claimSkipping(T0 - 1_000, List.of(), List.of(T0));
    assertThat(outcome.perJob()).containsExactly(ClaimOutcome.CAS_SKIPPED);
    assertThat(outcome.skippedRecorded()).isZero();
    assertThat(fx.trigger("j:" + T0)).isEmpty();
    assertThat(fx.events(shard)).isEmpty();
  }

  @Test
  void aJobWhoseDueScoreMovedIsSkippedAndNothingIsWritten() {
    ClaimOutcome outcome = claim(1, T0 - 1_000, 3, T0 - 1_000);
    assertThat(outcome.accepted()).isTrue();
    assertThat(outcome.perJob()).containsExactly(ClaimOutcome.CAS_SKIPPED);
    assertThat(fx.wheel("n1")).isEmpty();
    assertThat(fx.dueScore("j")).isEqualTo((double) T0);
    assertThat(fx.events(shard)).isEmpty();
  }

  @Test
  void aJobWhoseScheduleVersionChangedIsSkipped() {
    ClaimOutcome outcome = claim(1, T0, 2, T0);
    assertThat(outcome.casSkips()).isEqualTo(1);
    assertThat(fx.wheel("n1")).isEmpty();
  }

  @Test
  void aMatchingJobIsClaimedAndItsScoreMoves() {
    ClaimOutcome outcome = claim(1, T0, 3, T0, T0 + 1_000);
    assertThat(outcome.perJob()).containsExactly(2);
    assertThat(fx.wheel("n1")).containsOnlyKeys("j:" + T0, "j:" + (T0 + 1_000));
    assertThat(fx.dueScore("j")).isEqualTo((double) (T0 + 5_000));
    assertThat(fx.redis.sync().smembers(RedisKeys.nodes(shard))).containsExactly("n1");
    assertThat(fx.redis.sync().get(RedisKeys.fence(shard))).isEqualTo("1");
  }

  @Test
  void aFireWhoseTriggerRecordExistsIsNotClaimedTwice() {
    claim(1, T0, 3, T0);
    fx.redis.sync().zadd(RedisKeys.due(shard), T0, "j"); // as if the score were put back
    ClaimOutcome again = claim(1, T0, 3, T0);
    assertThat(again.duplicates()).isEqualTo(1);
    assertThat(again.claimedFires()).isZero();
    assertThat(fx.wheel("n1")).containsOnlyKeys("j:" + T0);
  }

  @Test
  void aClaimWritesNoEventAndIndexesTheTriggerUnderItsJob() {
    claim(1, T0, 3, T0, T0 + 1_000);
    assertThat(fx.events(shard)).isEmpty();
    assertThat(fx.trigger("j:" + T0))
        .containsEntry("state", "CLAIMED")
        .containsEntry("quietSuccess", "1")
        .containsEntry("scheduleVersion", "3");
    assertThat(fx.redis.sync().zrange(RedisKeys.jobTriggers(shard, "j"), 0, -1))
        .containsExactly("j:" + T0, "j:" + (T0 + 1_000));
    assertThat(fx.redis.sync().pttl(RedisKeys.jobTriggers(shard, "j"))).isPositive();
  }

  @Test
  void aFireWhoseTombstoneExistsIsNotClaimedAgain() {
    // Ended in SUCCESS, synced and compacted: the record is gone, its tombstone is what is left.
    fx.redis.sync().hset(RedisKeys.ended(shard, T0), "j:" + T0, "SUCCESS");
    ClaimOutcome outcome = claim(1, T0, 3, T0);
    assertThat(outcome.duplicates()).isEqualTo(1);
    assertThat(outcome.claimedFires()).isZero();
    assertThat(fx.wheel("n1")).isEmpty();
    assertThat(fx.trigger("j:" + T0)).isEmpty();
    assertThat(fx.dueScore("j")).isEqualTo((double) (T0 + 5_000));
  }

  @Test
  void aJobsTriggerIndexKeepsItsNewestEntries() {
    int size = ClaimBatch.JOB_TRIGGER_INDEX_SIZE;
    long expected = T0;
    for (int i = 0; i < size * 2; i++) {
      long fire = T0 + i * 1_000L;
      claim(1, expected, 3, fire);
      expected = T0 + 5_000;
      fx.redis.sync().zadd(RedisKeys.due(shard), expected, "j");
    }
    List<String> kept = fx.redis.sync().zrange(RedisKeys.jobTriggers(shard, "j"), 0, -1);
    assertThat(kept.size()).isBetween(size, size + size / 4);
    assertThat(kept).endsWith("j:" + (T0 + (size * 2 - 1) * 1_000L));
  }

  @Test
  void aLowerTermIsRejectedWithTheFenceAndAHigherTermRaisesIt() {
    fx.redis.sync().set(RedisKeys.fence(shard), "5");
    ClaimOutcome rejected = claim(4, T0, 3, T0);
    assertThat(rejected.accepted()).isFalse();
    assertThat(rejected.fence()).isEqualTo(5);
    assertThat(fx.wheel("n1")).isEmpty();
    assertThat(fx.dueScore("j")).isEqualTo((double) T0);

    ClaimOutcome accepted = claim(6, T0, 3, T0);
    assertThat(accepted.accepted()).isTrue();
    assertThat(fx.redis.sync().get(RedisKeys.fence(shard))).isEqualTo("6");
  }
}
