package dev.kairos.node.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.schedule.NextDue;
import dev.kairos.core.store.JobStore;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.claim.ClaimBatch;
import dev.kairos.protocol.claim.ClaimOutcome;
import dev.kairos.protocol.claim.Fire;
import dev.kairos.protocol.claim.JobClaim;
import dev.kairos.protocol.fence.ShardFence;
import dev.kairos.protocol.wheel.NodeWheelStore;
import dev.kairos.protocol.wheel.NodeWheelStore.DispatchAck;
import dev.kairos.protocol.wheel.WheelEntry;
import io.lettuce.core.Range;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The node's grouped broker acknowledgements on real Redis: each shard's acks wait for the linger
 * (or a full group) and go in one script call; until then their triggers stay in the node's
 * inflight set, which is what recovers them if the node dies first (docs/design.md "Ownership and
 * crash windows", node dies after broker ack, before {@code ack_dispatched}).
 */
@RealInfra(redis = RedisMode.STANDALONE)
class DeferredAcksIT {

  private static final Duration DEADLINE = Duration.ofSeconds(10);

  private final EmbeddedRedis server;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "deferred-acks-it"));
  private KairosRedis redis;
  private RedisKeys keys;
  private JobStore jobs;
  private NodeWheelStore store;
  private String node;

  DeferredAcksIT(EmbeddedRedis server) {
    this.server = server;
  }

  @BeforeEach
  void setUp() {
    redis = KairosRedis.connect(List.of(server.uri()), false, Duration.ofSeconds(5));
    keys = new RedisKeys(ClusterMetadata.initialise(redis, 64));
    jobs = new JobStore(redis, keys, System::currentTimeMillis);
    node = "acks-" + UUID.randomUUID().toString().substring(0, 8);
    store =
        new NodeWheelStore(
            redis, keys, node, 10_000, Duration.ofSeconds(5), new SimpleMeterRegistry());
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    timer.shutdownNow();
    timer.awaitTermination(5, TimeUnit.SECONDS);
    redis.close();
  }

  /** {@code n} triggers of one shard, claimed for this node and taken into its inflight set. */
  private List<String> inflightTriggersOfOneShard(int n, int[] shardOut) {
    String prefix = node + "-j";
    int shard = keys.shardOf(prefix + 0);
    List<String> triggers = new ArrayList<>();
    long fireMs = System.currentTimeMillis();
    // The server is shared with other tests, whose leaders raised the fences: lead above them.
    ShardFence fence = new ShardFence(redis, keys, Duration.ofSeconds(5));
    long term = fence.highestFence() + 1;
    fence.raiseAll(term);
    for (int i = 0; triggers.size() < n; i++) {
      String jobId = prefix + i;
      if (keys.shardOf(jobId) != shard) {
        continue;
      }
      JobDefinition job =
          jobs.create(
              JobDefinition.builder(jobId).app("acks").handler("h").fixedRate(3_600_000).build());
      long due = jobs.dueScore(jobId).orElseThrow().longValue();
      ClaimOutcome claimed =
          new ClaimBatch(shard, term, fireMs, 600_000)
              .add(
                  new JobClaim(
                      jobId,
                      due,
                      job.scheduleVersion(),
                      NextDue.at(fireMs + 3_600_000),
                      List.of(new Fire(fireMs, node))))
              .send(redis.async())
              .toCompletableFuture()
              .join();
      assertThat(claimed.claimedFires()).isEqualTo(1);
      triggers.add(jobId + ":" + fireMs);
    }
    assertThat(store.takeDue(shard, fireMs, 100, fireMs).due()).hasSize(n);
    shardOut[0] = shard;
    return triggers;
  }

  private List<String> inflight(int shard) {
    return redis.sync().zrange(RedisKeys.inflight(shard, node), 0, -1);
  }

  private String field(int shard, String triggerId, String field) {
    return redis.sync().hget(RedisKeys.trigger(shard, triggerId), field);
  }

  @Test
  void aShardsAcksWaitForTheLingerThenAreRecordedTogetherEachWithItsOwnTime() {
    int[] shard = new int[1];
    List<String> triggers = inflightTriggersOfOneShard(3, shard);
    DeferredAcks acks = new DeferredAcks(store, keys.shards(), 400, 256, timer);
    long t = System.currentTimeMillis();
    List<CompletableFuture<Boolean>> answers = new ArrayList<>();
    for (int i = 0; i < triggers.size(); i++) {
      answers.add(acks.add(shard[0], new DispatchAck(triggers.get(i), "2", t + i)));
    }
    assertThat(acks.buffered()).isEqualTo(3);
    assertThat(inflight(shard[0])).containsExactlyInAnyOrderElementsOf(triggers);

    Poll.until(
        DEADLINE, Duration.ofMillis(20), "the acks recorded", () -> inflight(shard[0]).isEmpty());

    assertThat(answers).allSatisfy(a -> assertThat(a.join()).isTrue());
    for (int i = 0; i < triggers.size(); i++) {
      assertThat(field(shard[0], triggers.get(i), "state")).isEqualTo("DISPATCHED");
      assertThat(field(shard[0], triggers.get(i), "dispatchedMs")).isEqualTo(Long.toString(t + i));
    }
    acks.close();
  }

  @Test
  void aFullGroupGoesAtOnceAndCloseRecordsWhatIsBuffered() {
    int[] shard = new int[1];
    List<String> triggers = inflightTriggersOfOneShard(3, shard);
    DeferredAcks acks = new DeferredAcks(store, keys.shards(), 60_000, 2, timer);
    long t = System.currentTimeMillis();
    CompletableFuture<Boolean> first = acks.add(shard[0], new DispatchAck(triggers.get(0), "1", t));
    CompletableFuture<Boolean> second =
        acks.add(shard[0], new DispatchAck(triggers.get(1), "1", t));
    assertThat(first.orTimeout(DEADLINE.toMillis(), TimeUnit.MILLISECONDS).join()).isTrue();
    assertThat(second.join()).isTrue();
    CompletableFuture<Boolean> third = acks.add(shard[0], new DispatchAck(triggers.get(2), "1", t));
    assertThat(inflight(shard[0])).containsExactly(triggers.get(2));

    acks.close();

    assertThat(third.orTimeout(DEADLINE.toMillis(), TimeUnit.MILLISECONDS).join()).isTrue();
    assertThat(inflight(shard[0])).isEmpty();
  }

  @Test
  void aTriggerStartedBeforeItsAckGetsItsDispatchTimeAndNoDispatchedEvent() {
    int[] shard = new int[1];
    String trigger = inflightTriggersOfOneShard(1, shard).get(0);
    redis.sync().hset(RedisKeys.trigger(shard[0], trigger), "state", "RUNNING");
    DeferredAcks acks = new DeferredAcks(store, keys.shards(), 50, 256, timer);
    long t = System.currentTimeMillis();

    assertThat(
            acks.add(shard[0], new DispatchAck(trigger, "3", t))
                .orTimeout(10, TimeUnit.SECONDS)
                .join())
        .isTrue();

    assertThat(field(shard[0], trigger, "state")).isEqualTo("RUNNING");
    assertThat(field(shard[0], trigger, "dispatchedMs")).isEqualTo(Long.toString(t));
    assertThat(
            redis.sync().xrange(RedisKeys.events(shard[0]), Range.create("-", "+")).stream()
                .filter(m -> trigger.equals(m.getBody().get("triggerId")))
                .filter(m -> "DISPATCHED".equals(m.getBody().get("state"))))
        .isEmpty();
    acks.close();
  }

  @Test
  void aNodeThatDiesWithAcksBufferedLeavesItsTriggersToTheInflightSweep() {
    int[] shard = new int[1];
    String trigger = inflightTriggersOfOneShard(1, shard).get(0);
    // The timer's first run is a minute away: this "node" dies before it (never closed).
    DeferredAcks dying = new DeferredAcks(store, keys.shards(), 60_000, 256, timer);
    dying.add(shard[0], new DispatchAck(trigger, "0", System.currentTimeMillis()));

    List<WheelEntry> requeued =
        store.requeueInflight(System.currentTimeMillis() + 1, FirePathSettings.PER_SHARD_LIMIT);

    assertThat(requeued).extracting(WheelEntry::triggerId).containsExactly(trigger);
    assertThat(field(shard[0], trigger, "state")).isEqualTo("CLAIMED");
  }
}
