package dev.kairos.protocol;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.schedule.NextDue;
import dev.kairos.protocol.claim.ClaimBatch;
import dev.kairos.protocol.claim.ClaimOutcome;
import dev.kairos.protocol.claim.Fire;
import dev.kairos.protocol.claim.JobClaim;
import java.util.List;

/** Claims chosen fires through the real claim script, as the leader would. */
public final class Claims {

  private Claims() {}

  /** Claims {@code fireMs} of {@code job} (whose due score is {@code dueMs}) onto {@code node}. */
  public static void claim(
      ClusterFixture fx, long term, JobDefinition job, long dueMs, long fireMs, String node) {
    int shard = fx.keys.shardOf(job.id());
    ClaimOutcome outcome =
        new ClaimBatch(shard, term, fireMs, 600_000)
            .add(
                new JobClaim(
                    job.id(),
                    dueMs,
                    job.scheduleVersion(),
                    NextDue.at(dueMs + 1),
                    List.of(new Fire(fireMs, node))))
            .send(fx.redis.async())
            .toCompletableFuture()
            .join();
    if (outcome.claimedFires() != 1) {
      throw new AssertionError("claim of " + job.id() + ":" + fireMs + " failed: " + outcome);
    }
    // Put the score back so the same job can be claimed again at another fire time.
    fx.redis.sync().zadd(RedisKeys.due(shard), dueMs, job.id());
  }
}
