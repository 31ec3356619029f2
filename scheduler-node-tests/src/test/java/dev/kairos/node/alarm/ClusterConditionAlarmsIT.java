package dev.kairos.node.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.alarm.AlarmDeduplicator;
import dev.kairos.alarm.AlarmMetrics;
import dev.kairos.alarm.AlarmService;
import dev.kairos.alarm.RetryPolicy;
import dev.kairos.alarm.webhook.WebhookAlarmChannel;
import dev.kairos.alarm.webhook.WebhookSettings;
import dev.kairos.coordinator.cluster.ElectionConfig;
import dev.kairos.coordinator.cluster.InProcessTransport;
import dev.kairos.coordinator.cluster.LeadershipManager;
import dev.kairos.coordinator.cluster.Member;
import dev.kairos.coordinator.cluster.TermAllocator;
import dev.kairos.coordinator.cluster.ZkLayout;
import dev.kairos.coordinator.cluster.ZkMembership;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.EnabledApps;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.EmbeddedZooKeeper;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.mq.slot.SlotLease;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.mq.slot.SlotRegistry;
import dev.kairos.node.cluster.internal.ClusterLeaderView;
import dev.kairos.sync.worker.SyncHealth;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Each cluster condition raises its alarm against real components (Redis job scripts and slot
 * leases, persistence-sync's lag sampling of a real stream, ZooKeeper election) and reaches a real
 * webhook receiver through the real {@link AlarmService}.
 */
@RealInfra(redis = RedisMode.STANDALONE, zookeeper = ZkMode.STANDALONE)
class ClusterConditionAlarmsIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Duration WINDOW = Duration.ofMinutes(10);

  private final EmbeddedRedis redisServer;
  private final EmbeddedZooKeeper zk;
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final SettableClock clock = new SettableClock(System.currentTimeMillis());

  ClusterConditionAlarmsIT(EmbeddedRedis redisServer, EmbeddedZooKeeper zk) {
    this.redisServer = redisServer;
    this.zk = zk;
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
  }

  private <T extends AutoCloseable> T closing(T closeable) {
    closeables.add(closeable);
    return closeable;
  }

  /** A Redis database of this test's own, emptied, so other classes' jobs and apps stay out. */
  private KairosRedis privateRedis(int database) {
    KairosRedis redis =
        closing(
            KairosRedis.connect(
                List.of(redisServer.uri() + "/" + database), false, Duration.ofSeconds(5)));
    redis.sync().flushdb();
    return redis;
  }

  private AlarmService alarms(AlarmReceiver receiver, AlarmMetrics metrics) {
    WebhookSettings webhook =
        new WebhookSettings(
            receiver.url(),
            Map.of(),
            null,
            Duration.ofSeconds(2),
            Duration.ofSeconds(5),
            new RetryPolicy(2, Duration.ofMillis(100), 2, Duration.ofSeconds(1)));
    AlarmService service =
        new AlarmService(
            new AlarmDeduplicator(WINDOW, 1000, clock),
            List.of(new WebhookAlarmChannel("webhook-0", webhook)),
            metrics,
            100,
            1,
            Duration.ofSeconds(2));
    service.start();
    return closing(service);
  }

  private static void await(String what, BooleanSupplier condition) {
    Poll.until(WAIT, Duration.ofMillis(20), what, condition::getAsBoolean);
  }

  private static JobDefinition job(String app, boolean enabled) {
    return JobDefinition.builder("job-" + UUID.randomUUID())
        .app(app)
        .handler("report")
        .fixedRate(60_000)
        .enabled(enabled)
        .build();
  }

  @Test
  void anAppWithEnabledJobsAndNoLiveSlotRaisesUntilAnExecutorLeasesOne() throws Exception {
    KairosRedis redis = privateRedis(11);
    RedisKeys keys = new RedisKeys(8);
    JobStore store = new JobStore(redis, keys, clock);
    store.create(job("billing", true));
    store.create(job("billing", true));
    store.create(job("served", true));
    store.create(job("dormant", false));
    SlotLease served =
        closing(
            new SlotLease(
                redis, SlotLeaseConfig.of("served", "exec-served", "host-a", List.of("report"))));
    served.start();
    AlarmReceiver receiver = closing(new AlarmReceiver());
    AlarmMetrics metrics = new AlarmMetrics(new SimpleMeterRegistry());
    AlarmService service = alarms(receiver, metrics);
    SlotRegistry slots = new SlotRegistry(redis);
    EnabledApps apps = new EnabledApps(redis, keys, 5_000);
    AppWithoutExecutorCheck leaderCheck =
        new AppWithoutExecutorCheck(
            apps::read, slots::liveSlots, () -> true, Duration.ofSeconds(30), clock, service);
    AppWithoutExecutorCheck followerCheck =
        new AppWithoutExecutorCheck(
            apps::read, slots::liveSlots, () -> false, Duration.ZERO, clock, service);

    leaderCheck.check();
    followerCheck.check();
    assertThat(metrics.count("kairos.alarm.raised", "kind", "APP_WITHOUT_EXECUTOR"))
        .as("inside the grace period, and a follower never judges")
        .isZero();

    clock.advance(Duration.ofSeconds(31));
    leaderCheck.check();
    await("the alarm at the receiver", () -> receiver.alarms().size() == 1);
    JsonNode alarm = receiver.alarms().get(0);
    assertThat(alarm.path("key").asText()).isEqualTo("APP_WITHOUT_EXECUTOR:billing");
    assertThat(alarm.at("/details/enabledJobs").asText()).isEqualTo("2");
    assertThat(alarm.at("/details/withoutExecutorMs").asLong()).isEqualTo(31_000);
    assertThat(leaderCheck.active()).isTrue();

    clock.advance(Duration.ofSeconds(5));
    leaderCheck.check();
    assertThat(metrics.count("kairos.alarm.suppressed", "kind", "APP_WITHOUT_EXECUTOR"))
        .as("still without executor: raised again, suppressed by the window")
        .isEqualTo(1);

    SlotLease billing =
        closing(
            new SlotLease(
                redis, SlotLeaseConfig.of("billing", "exec-billing", "host-b", List.of("report"))));
    billing.start();
    leaderCheck.check();
    assertThat(leaderCheck.active()).isFalse();
    assertThat(metrics.count("kairos.alarm.raised", "kind", "APP_WITHOUT_EXECUTOR")).isEqualTo(2);
    await("nothing left to deliver", () -> service.pending() == 0);
    assertThat(receiver.alarms()).hasSize(1);
  }

  @Test
  void persistenceSyncLagPastTheThresholdRaisesSyncLag() throws Exception {
    KairosRedis redis = privateRedis(12);
    int shards = ClusterMetadata.initialise(redis, 4);
    JobStore store = new JobStore(redis, new RedisKeys(shards), clock);
    store.create(job("billing", true)); // one event on one shard stream, never synced
    // Stream ids carry Redis time (the same machine's clock): age the event from now on.
    clock.set(System.currentTimeMillis());
    SyncHealth health =
        new SyncHealth(
            redis,
            "alarm-it-" + UUID.randomUUID(),
            clock,
            new SimpleMeterRegistry(),
            Duration.ofSeconds(30));
    AlarmReceiver receiver = closing(new AlarmReceiver());
    AlarmMetrics metrics = new AlarmMetrics(new SimpleMeterRegistry());
    AlarmService service = alarms(receiver, metrics);
    SyncLagCheck check = new SyncLagCheck(health::snapshot, null, () -> true, clock, service);
    SyncLagCheck stricter =
        new SyncLagCheck(health::snapshot, Duration.ofMinutes(2), () -> true, clock, service);
    SyncLagCheck follower = new SyncLagCheck(health::snapshot, null, () -> false, clock, service);

    health.refresh();
    check.check();
    assertThat(check.active()).as("a fresh event is not lag").isFalse();

    clock.advance(Duration.ofSeconds(45));
    health.refresh();
    follower.check();
    stricter.check();
    assertThat(stricter.active()).as("45 s is below its own 2 min threshold").isFalse();
    assertThat(metrics.count("kairos.alarm.raised", "kind", "SYNC_LAG")).isZero();
    check.check();

    await("the alarm at the receiver", () -> receiver.alarms().size() == 1);
    JsonNode alarm = receiver.alarms().get(0);
    assertThat(alarm.path("key").asText()).isEqualTo("SYNC_LAG:cluster");
    assertThat(alarm.at("/details/laggingShards").asText()).isEqualTo("1");
    assertThat(alarm.at("/details/thresholdMs").asText()).isEqualTo("30000");
    assertThat(alarm.at("/details/maxLagMs").asLong()).isBetween(44_000L, 50_000L);
  }

  /** One node's coordinator side: own ZooKeeper session, membership, leadership manager. */
  private final class ClusterMember implements AutoCloseable {
    final String name;
    final CuratorFramework client;
    final ZkMembership membership;
    final LeadershipManager manager;
    final ClusterLeaderView view;

    ClusterMember(String name, ZkLayout layout, InProcessTransport transport) {
      this.name = name;
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      client =
          CuratorFrameworkFactory.builder()
              .connectString(zk.connectString())
              .sessionTimeoutMs(3_000)
              .connectionTimeoutMs(1_000)
              .retryPolicy(new ExponentialBackoffRetry(100, 3))
              .build();
      client.start();
      membership =
          new ZkMembership(
              client, layout, Member.ofThisProcess(name, "in-process:" + name, 0), 200, meters);
      manager =
          new LeadershipManager(
              client,
              layout,
              membership,
              new TermAllocator(client, layout, () -> 0),
              transport,
              new ElectionConfig(
                  Duration.ofMillis(100),
                  Duration.ofMillis(600),
                  Duration.ofSeconds(3),
                  Duration.ofMillis(500)),
              System::nanoTime,
              meters);
      transport.register(name, manager);
      view = new ClusterLeaderView(manager, membership, client);
      membership.start();
      manager.start();
    }

    @Override
    public void close() {
      manager.close();
      membership.close();
      client.close();
    }
  }

  @Test
  void aMemberThatHearsNoLeaderForLongerThanTheBoundRaisesNoLeader() throws Exception {
    ZkLayout layout = new ZkLayout("/alarm-it-" + UUID.randomUUID());
    InProcessTransport transport = new InProcessTransport();
    ClusterMember a = closing(new ClusterMember("node-a", layout, transport));
    ClusterMember b = closing(new ClusterMember("node-b", layout, transport));
    await(
        "one leader heard by both",
        () ->
            (a.view.isLeader() ^ b.view.isLeader())
                && a.view.hearsLeader()
                && b.view.hearsLeader()
                && a.view.isMember()
                && b.view.isMember());
    ClusterMember leader = a.view.isLeader() ? a : b;
    ClusterMember follower = leader == a ? b : a;
    long term = leader.manager.leadingTerm();

    AlarmReceiver receiver = closing(new AlarmReceiver());
    AlarmMetrics leaderMetrics = new AlarmMetrics(new SimpleMeterRegistry());
    AlarmMetrics followerMetrics = new AlarmMetrics(new SimpleMeterRegistry());
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    NoLeaderCheck leaderCheck =
        new NoLeaderCheck(
            leader.view,
            System::currentTimeMillis,
            Duration.ofSeconds(1),
            alarms(receiver, leaderMetrics),
            leader.name);
    NoLeaderCheck followerCheck =
        new NoLeaderCheck(
            follower.view,
            System::currentTimeMillis,
            Duration.ofSeconds(1),
            alarms(receiver, followerMetrics),
            follower.name);
    closing(new ConditionMonitor(List.of(leaderCheck), Duration.ofMillis(100), meters)).start();
    closing(new ConditionMonitor(List.of(followerCheck), Duration.ofMillis(100), meters)).start();

    // A one-way partition: the follower stops hearing the leader. With two members it cannot win
    // the down-confirmation (the leader's ZooKeeper session is alive), so it stays leaderless.
    transport.blockHeartbeatsTo(follower.name);

    await("NO_LEADER at the receiver", () -> !receiver.alarms("NO_LEADER:cluster").isEmpty());
    JsonNode alarm = receiver.alarms("NO_LEADER:cluster").get(0);
    assertThat(alarm.at("/details/node").asText()).isEqualTo(follower.name);
    assertThat(alarm.at("/details/observedTerm").asLong()).isEqualTo(term);
    assertThat(alarm.at("/details/leaderlessMs").asLong()).isGreaterThan(1_000);
    assertThat(leader.manager.leadingTerm())
        .as("the partition left the leader alone")
        .isEqualTo(term);
    assertThat(leaderMetrics.count("kairos.alarm.raised", "kind", "NO_LEADER"))
        .as("the leader never judges itself leaderless")
        .isZero();

    transport.unblockHeartbeatsTo(follower.name);
    await("the follower hears the leader again", () -> !followerCheck.active());
    assertThat(leaderCheck.active()).isFalse();
  }

  @Test
  void aNodeThatIsNotAMemberDoesNotJudge() throws Exception {
    ZkLayout layout = new ZkLayout("/alarm-it-" + UUID.randomUUID());
    ClusterMember lone = closing(new ClusterMember("lone", layout, new InProcessTransport()));
    await("the lone node leads", () -> lone.view.isLeader() && lone.view.isMember());
    AlarmReceiver receiver = closing(new AlarmReceiver());
    AlarmMetrics metrics = new AlarmMetrics(new SimpleMeterRegistry());
    NoLeaderCheck check =
        new NoLeaderCheck(
            lone.view, clock, Duration.ofSeconds(1), alarms(receiver, metrics), "lone");

    lone.close(); // leaves ZooKeeper: no longer a member, no longer a leader
    await("membership gone", () -> !lone.view.isMember());
    for (int i = 0; i < 3; i++) {
      check.check();
      clock.advance(Duration.ofSeconds(5));
    }

    assertThat(lone.view.hearsLeader()).isFalse();
    assertThat(check.active()).isFalse();
    assertThat(metrics.count("kairos.alarm.raised", "kind", "NO_LEADER")).isZero();
  }
}
