package dev.kairos.node.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.coordinator.scan.DueFireScanner;
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
import dev.kairos.protocol.message.TriggerMessage;
import dev.kairos.protocol.wheel.NodeWheelStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The fire path against real Redis with a cluster clock the test sets: this machine's wall clock is
 * a minute ahead of cluster time, and nothing fires before cluster time reaches it. The broker is
 * replaced by a recorder (this test is about time, not delivery; the end-to-end IT sends).
 */
@RealInfra(redis = RedisMode.STANDALONE)
class NodeFirePathClockIT {

  private static final Duration DEADLINE = Duration.ofSeconds(15);

  /** Trigger id → cluster time when it was handed to the sender. */
  private final Map<String, Long> sent = new ConcurrentHashMap<>();

  @Test
  void wallClockAheadDoesNotFireEarly(EmbeddedRedis embedded) throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    String node = "clock-" + UUID.randomUUID().toString().substring(0, 8);
    long start = System.currentTimeMillis() - 60_000; // cluster time a minute behind the wall
    SettableClock clock = new SettableClock(start);
    try (KairosRedis redis =
        KairosRedis.connect(List.of(embedded.uri()), false, Duration.ofSeconds(5))) {
      RedisKeys keys = new RedisKeys(ClusterMetadata.initialise(redis, 64));
      JobStore jobs = new JobStore(redis, keys, clock);
      NodeWheelStore store =
          new NodeWheelStore(redis, keys, node, 10_000, Duration.ofSeconds(5), meters);
      TriggerSender recorder =
          (message, chosen) -> {
            TriggerMessage trigger = message;
            sent.put(trigger.triggerId(), clock.nowMs());
            return CompletableFuture.completedFuture(null);
          };
      FirePathSettings settings =
          FirePathFixture.settings(
              Duration.ofMillis(200), Duration.ofSeconds(5), Duration.ofSeconds(30));
      try (NodeFirePath path =
          FirePathFixture.oneSlotPath(store, clock, recorder, settings, meters)) {
        path.start();
        long term = FirePathFixture.newLeaderTerm(redis, keys);
        DueFireScanner scanner = FirePathFixture.scanner(redis, keys, clock, path, meters);
        String prefix = node + "-";
        long fireAt = start + 2_000;
        jobs.create(oneShot(prefix + "future", fireAt));
        jobs.create(oneShot(prefix + "now", start));
        scanner.scan(term);

        String now = prefix + "now:" + start;
        String future = prefix + "future:" + fireAt;
        awaitSent(now);
        assertThat(sent).as("due by the wall clock, not by cluster time").doesNotContainKey(future);

        clock.set(fireAt - 1);
        jobs.create(oneShot(prefix + "control", fireAt - 1));
        scanner.scan(term);
        awaitSent(prefix + "control:" + (fireAt - 1)); // the ticker has looked at time fireAt - 1
        assertThat(sent).as("one millisecond before its fire time").doesNotContainKey(future);

        clock.set(fireAt);
        awaitSent(future);
        assertThat(sent.get(future)).isGreaterThanOrEqualTo(fireAt);
        for (String id : List.of("future", "now", "control")) {
          jobs.delete(prefix + id);
        }
      }
    }
  }

  @Test
  void aPreDispatchedTriggerIsSentItsLeadBeforeItsFireTimeAndNeverEarlier(EmbeddedRedis embedded)
      throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    String node = "lead-" + UUID.randomUUID().toString().substring(0, 8);
    long start = System.currentTimeMillis() - 60_000;
    SettableClock clock = new SettableClock(start);
    Duration lead = Duration.ofMillis(1_500);
    try (KairosRedis redis =
        KairosRedis.connect(List.of(embedded.uri()), false, Duration.ofSeconds(5))) {
      RedisKeys keys = new RedisKeys(ClusterMetadata.initialise(redis, 64));
      JobStore jobs = new JobStore(redis, keys, clock);
      NodeWheelStore store =
          new NodeWheelStore(redis, keys, node, 10_000, Duration.ofSeconds(5), meters);
      Map<String, TriggerMessage> messages = new ConcurrentHashMap<>();
      TriggerSender recorder =
          (message, chosen) -> {
            sent.put(message.triggerId(), clock.nowMs());
            messages.put(message.triggerId(), message);
            return CompletableFuture.completedFuture(null);
          };
      FirePathSettings settings =
          FirePathFixture.settings()
              .reconcileInterval(Duration.ofMillis(200))
              .resendAfter(Duration.ofSeconds(30))
              .preDispatch(lead)
              .build();
      try (NodeFirePath path =
          FirePathFixture.oneSlotPath(store, clock, recorder, settings, meters)) {
        path.start();
        long term = FirePathFixture.newLeaderTerm(redis, keys);
        DueFireScanner scanner = FirePathFixture.scanner(redis, keys, clock, path, meters);
        long fireAt = start + 4_000;
        String id = node + "-burst";
        jobs.create(oneShot(id, fireAt));
        scanner.scan(term);
        String trigger = id + ":" + fireAt;

        clock.set(fireAt - lead.toMillis() - 1);
        // A control due now is sent at once: once it is, the wheel has handed out everything due.
        jobs.create(oneShot(node + "-control", fireAt - lead.toMillis() - 1));
        scanner.scan(term);
        awaitSent(node + "-control:" + (fireAt - lead.toMillis() - 1));
        assertThat(sent).as("a millisecond before its lead begins").doesNotContainKey(trigger);

        clock.set(fireAt - lead.toMillis());
        awaitSent(trigger);
        assertThat(sent.get(trigger))
            .as("sent when its lead begins, before it is due")
            .isGreaterThanOrEqualTo(fireAt - lead.toMillis())
            .isLessThan(fireAt);
        assertThat(messages.get(trigger).scheduledFireMs())
            .as("the message carries the fire time the executor holds it until")
            .isEqualTo(fireAt);
        jobs.delete(id);
        jobs.delete(node + "-control");
      }
    }
  }

  private static JobDefinition oneShot(String id, long atMs) {
    return JobDefinition.builder(id).app("clock").handler("h").oneShot(atMs).build();
  }

  private void awaitSent(String triggerId) {
    Poll.until(
        DEADLINE,
        Duration.ofMillis(20),
        triggerId + " to be sent",
        () -> java.util.Set.copyOf(sent.keySet()),
        ids -> ids.contains(triggerId),
        "the sent trigger ids to contain " + triggerId);
  }
}
