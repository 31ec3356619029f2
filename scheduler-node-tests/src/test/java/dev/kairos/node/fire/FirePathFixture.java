package dev.kairos.node.fire;

import dev.kairos.coordinator.assign.ConsistentHashAssigner;
import dev.kairos.coordinator.assign.StaticLiveNodes;
import dev.kairos.coordinator.scan.DueFireScanner;
import dev.kairos.coordinator.scan.ScanConfig;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.schedule.FireWindow;
import dev.kairos.core.time.KairosClock;
import dev.kairos.mq.slot.SlotRegistry;
import dev.kairos.node.route.SlotChoosers;
import dev.kairos.protocol.fence.ShardFence;
import dev.kairos.protocol.slot.SlotInfo;
import dev.kairos.protocol.wheel.NodeWheelStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The one node the fire path ITs run against real Redis, wired the same way in each: a {@link
 * NodeFirePath} over the test's wheel store, sender and settings; the shard fences raised to a new
 * leader term; and a {@link DueFireScanner} that claims due fires for that term and assigns every
 * one to the path's node. A test passes in what it is about (the sender, the router, the settings)
 * and keeps its own steps and assertions.
 */
final class FirePathFixture {

  private FirePathFixture() {}

  /**
   * A path that routes every fire to one live slot ({@code exec-1}, handler {@code h}) without a
   * slot registry, so the sender sees every message; messages carry term 1 (the tests do not read
   * it).
   */
  static NodeFirePath oneSlotPath(
      NodeWheelStore store,
      KairosClock clock,
      TriggerSender sender,
      FirePathSettings settings,
      MeterRegistry meters) {
    SlotInfo slot = new SlotInfo("exec-1", "test", List.of("h"), 0, 0, Long.MAX_VALUE, false);
    SlotRouter router =
        new SlotRouter(app -> List.of(slot), Duration.ofSeconds(1), System::nanoTime);
    return path(store, router, sender, clock, () -> 1, settings, meters);
  }

  /** A router that reads the apps' slot leases from Redis, as a node does. */
  static SlotRouter leaseRouter(KairosRedis redis) {
    return new SlotRouter(
        new SlotRegistry(redis)::read,
        Duration.ofMillis(200),
        System::nanoTime,
        SlotChoosers.create());
  }

  /** A path whose topics are taken to exist: the tests create them or never reach a broker. */
  static NodeFirePath path(
      NodeWheelStore store,
      SlotRouter router,
      TriggerSender sender,
      KairosClock clock,
      LongSupplier term,
      FirePathSettings settings,
      MeterRegistry meters) {
    return new NodeFirePath(
        store,
        router,
        new TopicEnsurer(topic -> {}, Duration.ofSeconds(1), System::nanoTime),
        sender,
        clock,
        term,
        settings,
        meters);
  }

  /**
   * Settings with batches of 64 on two dispatch and two ack threads, sending each fire at its fire
   * time (no pre-dispatch); the rest is what these tests tune.
   */
  static FirePathSettings.Builder settings() {
    return FirePathSettings.builder()
        .dispatchThreads(2)
        .ackThreads(2)
        .maxPending(10_000)
        .preDispatch(Duration.ZERO);
  }

  /** {@link #settings()} with the loop intervals a test tunes. */
  static FirePathSettings settings(
      Duration reconcileInterval, Duration sweepInterval, Duration resendAfter) {
    return settings()
        .reconcileInterval(reconcileInterval)
        .sweepInterval(sweepInterval)
        .resendAfter(resendAfter)
        .build();
  }

  /**
   * Settings that hand out one due entry per dispatch task and keep the reconcile, sweep and
   * re-send an hour apart, so no loop moves an entry while the test watches.
   */
  static FirePathSettings oneEntryPerTask(int dispatchThreads) {
    return settings()
        .batchSize(1)
        .dispatchThreads(dispatchThreads)
        .ackThreads(1)
        .reconcileInterval(Duration.ofHours(1))
        .sweepInterval(Duration.ofHours(1))
        .resendAfter(Duration.ofHours(1))
        .build();
  }

  /** Raises every shard's fence above any term seen, as a newly elected leader does. */
  static long newLeaderTerm(KairosRedis redis, RedisKeys keys) {
    ShardFence fence = new ShardFence(redis, keys, Duration.ofSeconds(5));
    long term = fence.highestFence() + 1;
    fence.raiseAll(term);
    return term;
  }

  /** A scanner that claims due fires and assigns every one to {@code path}'s node. */
  static DueFireScanner scanner(
      KairosRedis redis,
      RedisKeys keys,
      KairosClock clock,
      NodeFirePath path,
      MeterRegistry meters) {
    return new DueFireScanner(
        redis,
        keys,
        ScanConfig.defaults(),
        clock,
        StaticLiveNodes.of(path.node()),
        new ConsistentHashAssigner(),
        path,
        new FireWindow(),
        meters);
  }
}
