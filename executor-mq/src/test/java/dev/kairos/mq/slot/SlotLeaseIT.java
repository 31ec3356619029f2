package dev.kairos.mq.slot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.slot.SlotInfo;
import dev.kairos.protocol.slot.SlotScripts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RealInfra(redis = RedisMode.CLUSTER)
class SlotLeaseIT {

  private static final Duration SHORT_TTL = Duration.ofMillis(900);
  private static final Duration SHORT_RENEW = Duration.ofMillis(200);
  private static final Duration SHORT_MARGIN = Duration.ofMillis(200);

  private final KairosRedis redis;
  private final SlotRegistry registry;
  private final SlotScripts scripts;
  private final List<SlotLease> leases = new ArrayList<>();
  private String app;

  SlotLeaseIT(EmbeddedRedisCluster cluster) {
    this.redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5));
    this.registry = new SlotRegistry(redis);
    this.scripts = new SlotScripts(redis);
  }

  @BeforeEach
  void newApp() {
    app = "app-" + UUID.randomUUID();
  }

  @AfterEach
  void closeAll() {
    for (int i = leases.size() - 1; i >= 0; i--) {
      leases.get(i).close();
    }
    redis.close();
  }

  private SlotLeaseConfig config(String instance, int slots) {
    return SlotLeaseConfig.of(app, instance, "host-" + instance, List.of("h1", "h2"))
        .withSlotCount(slots)
        .withTiming(SHORT_TTL, SHORT_RENEW, SHORT_MARGIN);
  }

  private SlotLease started(String instance, int slots) {
    SlotLease lease = new SlotLease(redis, config(instance, slots));
    leases.add(lease);
    lease.start();
    return lease;
  }

  private static void await(String what, Duration timeout, BooleanSupplier condition) {
    Poll.until(timeout, Duration.ofMillis(20), what, condition::getAsBoolean);
  }

  @Test
  void threeInstancesGetSlotsZeroOneTwo() {
    assertThat(List.of(started("a", 4), started("b", 4), started("c", 4)))
        .extracting(SlotLease::slot)
        .containsExactly(0, 1, 2);
    assertThat(registry.liveSlots(app))
        .extracting(SlotInfo::slot, SlotInfo::instanceId, SlotInfo::host)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(0, "a", "host-a"),
            org.assertj.core.groups.Tuple.tuple(1, "b", "host-b"),
            org.assertj.core.groups.Tuple.tuple(2, "c", "host-c"));
    assertThat(registry.liveSlots(app, "h2")).hasSize(3);
    assertThat(registry.liveSlots(app, "other")).isEmpty();
  }

  @Test
  void anAppRunsAtMostQInstances() {
    started("a", 2);
    started("b", 2);
    SlotLease third = new SlotLease(redis, config("c", 2));
    leases.add(third);
    assertThatThrownBy(third::start)
        .isInstanceOf(NoFreeSlotException.class)
        .hasMessageContaining(app);
    assertThat(third.isValid()).isFalse();
  }

  @Test
  void aLeaseThatStopsRenewingExpiresAndItsSlotGoesToANewInstance() throws Exception {
    // A crashed instance: claimed slot 0 and never renewed.
    SlotScripts.Answer crashed = scripts.claim(app, "crashed", 3, SHORT_TTL, "gone", List.of("h1"));
    assertThat(crashed.slot()).isZero();
    SlotLease survivor = started("survivor", 3);
    assertThat(survivor.slot()).isEqualTo(1);

    // Routers only see live slots: the crashed slot leaves the registry when its TTL runs out.
    await(
        "the crashed lease to expire",
        Duration.ofSeconds(5),
        () -> registry.liveSlots(app).stream().noneMatch(s -> s.instanceId().equals("crashed")));
    assertThat(registry.liveSlots(app)).extracting(SlotInfo::slot).containsExactly(1);

    // The next instance fills the gap (lowest free), so it drains what was left in queue 0.
    SlotLease replacement = started("replacement", 3);
    assertThat(replacement.slot()).isZero();
    assertThat(survivor.isValid()).isTrue();
  }

  @Test
  void renewalKeepsTheLeaseAlivePastItsTtl() throws Exception {
    SlotLease lease = started("a", 2);
    await("five renewals", Duration.ofSeconds(5), () -> lease.renewals() >= 5);
    // 5 renewals x 200 ms is past the 900 ms TTL: only renewals can explain a live lease now.
    assertThat(lease.isValid()).isTrue();
    assertThat(registry.liveSlots(app)).extracting(SlotInfo::instanceId).containsExactly("a");
    assertThat(lease.renewalFailures()).isZero();
  }

  @Test
  void renewalByTheWrongInstanceFails() {
    SlotLease owner = started("owner", 2);
    assertThat(scripts.renew(app, owner.slot(), "intruder", SHORT_TTL, false, Map.of()).ok())
        .isFalse();
    assertThat(scripts.release(app, owner.slot(), "intruder")).isFalse();
    assertThat(scripts.renew(app, owner.slot(), "owner", SHORT_TTL, false, Map.of()).ok()).isTrue();
    assertThat(registry.liveSlots(app)).extracting(SlotInfo::instanceId).containsExactly("owner");
  }

  @Test
  void anInstanceWhoseSlotWasTakenStopsAtItsNextRenewal() throws Exception {
    SlotLease victim = started("victim", 2);
    // Simulates the slot being claimed by another instance after the victim's lease expired.
    redis
        .sync()
        .hset(
            RedisKeys.slots(app),
            Integer.toString(victim.slot()),
            "{\"instanceId\":\"thief\",\"slot\":0,\"expiresMs\":99999999999999,\"handlers\":[\"h1\"]}");
    await("the victim to notice", Duration.ofSeconds(5), victim::isLost);
    assertThat(victim.isValid()).isFalse();
    victim.close();
    // Its close must not delete the thief's lease.
    assertThat(registry.liveSlots(app)).extracting(SlotInfo::instanceId).containsExactly("thief");
  }

  @Test
  void busyFlagReachesTheRegistryWithTheNextRenewal() throws Exception {
    SlotLease lease = started("a", 2);
    assertThat(registry.liveSlots(app).get(0).busy()).isFalse();
    lease.setBusy(true);
    await(
        "busy in the registry", Duration.ofSeconds(5), () -> registry.liveSlots(app).get(0).busy());
  }

  @Test
  void receiveProgressStartsAtZeroAndReachesTheRegistryWithTheNextRenewal() throws Exception {
    SlotLease lease = started("a", 2);
    // Claimed: "received nothing yet" for every handler, which is known, unlike a missing entry.
    assertThat(registry.liveSlots(app).get(0).progress()).isEqualTo(Map.of("h1", 0L, "h2", 0L));

    lease.receivedThrough("h1", 1_700_000_000_123L);
    lease.receivedThrough("h1", 1_700_000_000_000L); // an older time never moves it back

    await(
        "progress in the registry",
        Duration.ofSeconds(5),
        () -> registry.liveSlots(app).get(0).receivedThrough("h1").orElse(0) == 1_700_000_000_123L);
    assertThat(registry.liveSlots(app).get(0).receivedThrough("h2")).hasValue(0L);
    assertThatThrownBy(() -> lease.receivedThrough("other", 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void progressSurvivesRedisCjsonExactlyAndAnEmptyOneReadsAsNone() {
    SlotScripts.Answer claim = scripts.claim(app, "x", 2, SHORT_TTL, "h", List.of("h1"));
    String field = Integer.toString(claim.slot());

    scripts.renew(app, claim.slot(), "x", SHORT_TTL, false, Map.of());
    // cjson encodes the empty table as {}; it must read as "no progress", not fail the lease.
    assertThat(redis.sync().hget(RedisKeys.slots(app), field)).contains("\"progress\":{}");
    assertThat(registry.liveSlots(app))
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.progress()).isEmpty();
              assertThat(s.hosts("h1")).isTrue();
            });

    // Epoch ms has 13 digits: inside cjson's 14 significant digits, so no rounding.
    scripts.renew(app, claim.slot(), "x", SHORT_TTL, false, Map.of("h1", 1_700_000_000_123L));
    assertThat(registry.liveSlots(app).get(0).receivedThrough("h1")).hasValue(1_700_000_000_123L);
  }

  @Test
  void closeReleasesTheSlotAtOnce() {
    SlotLease first = started("a", 1);
    first.close();
    first.close(); // second close is a no-op
    assertThat(first.isValid()).isFalse();
    assertThat(registry.liveSlots(app)).isEmpty();
    assertThat(started("b", 1).slot()).isZero();
  }

  @Test
  void aLeaseStartsOnlyOnce() {
    SlotLease lease = started("a", 2);
    assertThatThrownBy(lease::start).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aRetriedClaimByTheSameInstanceGetsTheSameSlot() {
    SlotScripts.Answer first = scripts.claim(app, "a", 3, SHORT_TTL, "h", List.of("h1"));
    SlotScripts.Answer retry = scripts.claim(app, "a", 3, SHORT_TTL, "h", List.of("h1"));
    assertThat(retry.slot()).isEqualTo(first.slot());
    assertThat(registry.liveSlots(app)).hasSize(1);
  }
}
