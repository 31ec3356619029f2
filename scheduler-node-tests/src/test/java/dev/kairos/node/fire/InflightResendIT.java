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
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * docs/design.md "Ownership and crash windows", row "node dies after wheel → inflight, before or
 * during send": the entry survives in the node's inflight set in Redis, and the restarted node's
 * inflight sweeper publishes it again under the same trigger id (a second publish if the first one
 * reached the broker; the executor's start claim dedups). The broker is a recorder here: the crash
 * is in the node, between take_due and the ack.
 */
@RealInfra(redis = RedisMode.STANDALONE)
class InflightResendIT {

  private static final Duration DEADLINE = Duration.ofSeconds(15);

  /** The no-executor grace and the ack linger stay below the 1 s re-send delay. */
  private static final FirePathSettings SETTINGS =
      FirePathFixture.settings()
          .reconcileInterval(Duration.ofMillis(200))
          .sweepInterval(Duration.ofMillis(200))
          .resendAfter(Duration.ofSeconds(1))
          .noExecutorGrace(Duration.ofMillis(500))
          .ackLinger(Duration.ofMillis(250))
          .build();

  @Test
  void entryTakenButNeverAcknowledgedIsResentAfterRestart(EmbeddedRedis embedded) throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    String node = "crash-" + UUID.randomUUID().toString().substring(0, 8);
    long start = System.currentTimeMillis();
    SettableClock clock = new SettableClock(start);
    Queue<String> hung = new ConcurrentLinkedQueue<>();
    Queue<String> resent = new ConcurrentLinkedQueue<>();
    try (KairosRedis redis =
        KairosRedis.connect(List.of(embedded.uri()), false, Duration.ofSeconds(5))) {
      RedisKeys keys = new RedisKeys(ClusterMetadata.initialise(redis, 64));
      JobStore jobs = new JobStore(redis, keys, clock);
      NodeWheelStore store =
          new NodeWheelStore(redis, keys, node, 10_000, Duration.ofSeconds(5), meters);
      String jobId = node + "-job";
      String triggerId = jobId + ":" + start;
      int shard = keys.shardOf(jobId);

      try (NodeFirePath crashing =
          FirePathFixture.oneSlotPath(
              store,
              clock,
              (message, slot) -> {
                hung.add(message.triggerId());
                return new CompletableFuture<>(); // the process "dies" before the broker acks
              },
              SETTINGS,
              meters)) {
        crashing.start();
        long term = FirePathFixture.newLeaderTerm(redis, keys);
        jobs.create(JobDefinition.builder(jobId).app("crash").handler("h").oneShot(start).build());
        FirePathFixture.scanner(redis, keys, clock, crashing, meters).scan(term);
        await(() -> hung.contains(triggerId), "first send attempted");
      }
      assertThat(redis.sync().zscore(RedisKeys.inflight(shard, node), triggerId))
          .as("after the crash the fire waits in the node's inflight set")
          .isNotNull();

      clock.set(start + 5_000); // older than the resend delay of SETTINGS (1 s)
      try (NodeFirePath restarted =
          FirePathFixture.oneSlotPath(
              store,
              clock,
              (message, slot) -> {
                resent.add(message.triggerId());
                return CompletableFuture.completedFuture(null);
              },
              SETTINGS,
              meters)) {
        restarted.start();
        await(() -> resent.contains(triggerId), "re-sent by the restarted node's sweeper");
        await(
            () -> redis.sync().zscore(RedisKeys.inflight(shard, node), triggerId) == null,
            "inflight entry removed after the ack");
        assertThat(redis.sync().hget(RedisKeys.trigger(shard, triggerId), "state"))
            .isEqualTo("DISPATCHED");
        assertThat(resent).containsOnly(triggerId);
      } finally {
        jobs.delete(jobId);
      }
    }
  }

  private static void await(BooleanSupplier done, String what) {
    Poll.until(DEADLINE, Duration.ofMillis(20), what, done::getAsBoolean);
  }
}
