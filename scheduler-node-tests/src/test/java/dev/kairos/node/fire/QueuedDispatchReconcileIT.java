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
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A node whose dispatch threads are busy (a loaded machine, a burst moved here by failover) has due
 * entries waiting in the dispatch queue; they are still in its persisted wheel until a dispatch
 * task takes them. The reconcile must not queue them again: under load every reconcile pass would
 * otherwise add the whole backlog once more, the queue would grow by the backlog every second, fill
 * up, and the oldest entries, refused again and again, would wait without bound (seen in the node
 * restart drill: one fire refused for 2 min 40 s while later fires of its job ran).
 */
@RealInfra(redis = RedisMode.STANDALONE)
class QueuedDispatchReconcileIT {

  private static final Duration DEADLINE = Duration.ofSeconds(15);
  private static final int JOBS = 5;

  @Test
  void reconcileDoesNotQueueAgainEntriesWaitingForADispatchThread(EmbeddedRedis embedded)
      throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    String node = "busy-" + UUID.randomUUID().toString().substring(0, 8);
    long start = System.currentTimeMillis();
    SettableClock clock = new SettableClock(start);
    Queue<String> sent = new ConcurrentLinkedQueue<>();
    CountDownLatch sending = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (KairosRedis redis =
        KairosRedis.connect(List.of(embedded.uri()), false, Duration.ofSeconds(5))) {
      RedisKeys keys = new RedisKeys(ClusterMetadata.initialise(redis, 64));
      JobStore jobs = new JobStore(redis, keys, clock);
      NodeWheelStore store =
          new NodeWheelStore(redis, keys, node, 10_000, Duration.ofSeconds(5), meters);
      // One job per shard: each take_due takes its own entry only, so the queued ones stay in
      // the persisted wheel while the first send blocks the only dispatch thread.
      List<String> jobIds = new ArrayList<>();
      Set<Integer> shards = new HashSet<>();
      for (int i = 0; jobIds.size() < JOBS; i++) {
        String jobId = node + "-job-" + i;
        if (shards.add(keys.shardOf(jobId))) {
          jobIds.add(jobId);
        }
      }

      // One entry per task on one dispatch thread; the loops far apart so only the test reconciles.
      try (NodeFirePath path =
          FirePathFixture.oneSlotPath(
              store,
              clock,
              (message, slot) -> {
                sending.countDown();
                try {
                  release.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                sent.add(message.triggerId());
                return CompletableFuture.completedFuture(null);
              },
              FirePathFixture.oneEntryPerTask(1),
              meters)) {
        path.start();
        long term = FirePathFixture.newLeaderTerm(redis, keys);
        for (String jobId : jobIds) {
          jobs.create(JobDefinition.builder(jobId).app("busy").handler("h").oneShot(start).build());
        }
        FirePathFixture.scanner(redis, keys, clock, path, meters).scan(term);
        assertThat(sending.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS))
            .as("the first send holds the only dispatch thread")
            .isTrue();

        assertThat(path.reconcile())
            .as("entries re-added while they wait in the dispatch queue")
            .isZero();
        assertThat(path.reconcile()).isZero();

        release.countDown();
        await(() -> sent.size() >= JOBS, "every fire sent");
        assertThat(sent)
            .as("each fire sent once")
            .containsExactlyInAnyOrderElementsOf(
                jobIds.stream().map(id -> id + ":" + start).toList());
      } finally {
        release.countDown();
        jobIds.forEach(jobs::delete);
      }
    }
  }

  private static void await(BooleanSupplier done, String what) {
    Poll.until(DEADLINE, Duration.ofMillis(20), what, done::getAsBoolean);
  }
}
