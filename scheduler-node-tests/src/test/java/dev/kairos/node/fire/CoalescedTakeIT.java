package dev.kairos.node.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.wheel.NodeWheelStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/**
 * Fires of one shard handed out while that shard's takes are in flight share the next take instead
 * of each sending its own: under overload the takes in flight stay bounded rather than growing with
 * the fire rate until every one of them outlives the command timeout (W2 5,000 fires/s in
 * ClusterBench: thousands of take_due calls a second failed together).
 */
@RealInfra(redis = RedisMode.STANDALONE)
class CoalescedTakeIT {

  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final int JOBS = 20;

  @Test
  void firesOfOneShardHandedOutWhileItsTakesAreOutShareTheNextTake(EmbeddedRedis embedded)
      throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    String node = "takes-" + UUID.randomUUID().toString().substring(0, 8);
    long start = System.currentTimeMillis();
    long due = start + 2_000;
    SettableClock clock = new SettableClock(start);
    Queue<String> sent = new ConcurrentLinkedQueue<>();
    try (KairosRedis redis =
            KairosRedis.connect(List.of(embedded.uri()), false, Duration.ofSeconds(10));
        KairosRedis admin =
            KairosRedis.connect(List.of(embedded.uri()), false, Duration.ofSeconds(10))) {
      RedisKeys keys = new RedisKeys(ClusterMetadata.initialise(redis, 64));
      JobStore jobs = new JobStore(redis, keys, clock);
      NodeWheelStore store =
          new NodeWheelStore(redis, keys, node, 10_000, Duration.ofSeconds(10), meters);
      // Every job in one shard, all due at the same instant.
      List<String> jobIds = new ArrayList<>();
      int shard = keys.shardOf(node + "-job-0");
      for (int i = 0; jobIds.size() < JOBS; i++) {
        String jobId = node + "-job-" + i;
        if (keys.shardOf(jobId) == shard) {
          jobIds.add(jobId);
        }
      }
      // One entry per dispatch task; the loops far apart so no reconcile or sweep takes part.
      try (NodeFirePath path =
          FirePathFixture.oneSlotPath(
              store,
              clock,
              (message, slot) -> {
                sent.add(message.triggerId());
                return CompletableFuture.completedFuture(null);
              },
              FirePathFixture.oneEntryPerTask(2),
              meters)) {
        path.start();
        long term = FirePathFixture.newLeaderTerm(redis, keys);
        for (String jobId : jobIds) {
          jobs.create(JobDefinition.builder(jobId).app("takes").handler("h").oneShot(due).build());
        }
        // Claimed ahead (pre-read 5 s), not yet due on the node's clock.
        FirePathFixture.scanner(redis, keys, clock, path, meters).scan(term);
        assertThat(sent).isEmpty();

        // Redis holds every command for 4 s, well past the ticker's longest park (1 s): all
        // twenty one-entry batches are handed out while the shard's first takes wait.
        assertThat(admin.sync().clientPause(4_000)).isEqualTo("OK");
        clock.set(due);

        Poll.until(DEADLINE, Duration.ofMillis(20), "every fire sent", () -> sent.size() >= JOBS);
        assertThat(sent)
            .as("each fire sent once")
            .containsExactlyInAnyOrderElementsOf(
                jobIds.stream().map(id -> id + ":" + due).toList());
        // Two takes went out at once (TAKES_PER_SHARD = 2); the other 18 batches shared a third.
        assertThat(NodeFirePath.TAKES_PER_SHARD).isEqualTo(2);
        assertThat(meters.get("kairos.fires.take.calls").counter().count())
            .as("take_due calls for %d one-entry batches of one shard", JOBS)
            .isEqualTo(3.0);
        assertThat(meters.get("kairos.fires.take.errors").counter().count()).isZero();
      } finally {
        jobIds.forEach(jobs::delete);
      }
    }
  }
}
