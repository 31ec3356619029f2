package dev.kairos.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TimingValidatorTest {

  /** Mutable copy of the defaults so each test breaks exactly one rule. */
  private static final class Timings {
    Duration heartbeat = TimingParameters.DEFAULT_HEARTBEAT_INTERVAL;
    Duration leader = TimingParameters.DEFAULT_LEADER_TIMEOUT;
    Duration election = TimingParameters.DEFAULT_ELECTION_BUDGET;
    Duration session = TimingParameters.DEFAULT_ZK_SESSION_TIMEOUT;
    Duration tick = TimingParameters.DEFAULT_ZK_TICK_TIME;
    Duration scan = TimingParameters.DEFAULT_SCAN_INTERVAL;
    Duration preRead = TimingParameters.DEFAULT_PRE_READ;
    Duration reconcile = TimingParameters.DEFAULT_WHEEL_RECONCILE_INTERVAL;
    Duration misfire = TimingParameters.DEFAULT_MISFIRE_THRESHOLD;
    Duration dedup = TimingParameters.DEFAULT_DEDUP_WINDOW;
    Duration redelivery = TimingParameters.DEFAULT_REDELIVERY_BUDGET;
    Duration leaseTtl = TimingParameters.DEFAULT_SLOT_LEASE_TTL;
    Duration leaseRenew = TimingParameters.DEFAULT_SLOT_LEASE_RENEW_INTERVAL;
    Duration preDispatch = TimingParameters.DEFAULT_PRE_DISPATCH;

    TimingParameters build() {
      return new TimingParameters(
          heartbeat,
          leader,
          election,
          session,
          tick,
          scan,
          preRead,
          reconcile,
          misfire,
          dedup,
          redelivery,
          leaseTtl,
          leaseRenew,
          preDispatch);
    }
  }

  private static Duration ms(long ms) {
    return Duration.ofMillis(ms);
  }

  @Test
  void defaultsSatisfyEveryRule() {
    assertThat(TimingValidator.violations(TimingParameters.defaults())).isEmpty();
    TimingValidator.check(TimingParameters.defaults());
    assertThat(TimingValidator.violations(new Timings().build())).isEmpty();
  }

  @Test
  void preDispatchMustEndAfterTheLeaderAndAReconcileHavePutTheFireOnAWheel() {
    Timings t = new Timings();
    t.preDispatch = ms(3_000); // 5 s pre-read − 1 s scan − 1 s reconcile = 3 s: not below it
    assertThat(TimingValidator.violations(t.build()))
        .singleElement()
        .asString()
        .isEqualTo(
            "kairos.fire.pre-dispatch (3s) must be less than kairos.cluster.pre-read −"
                + " kairos.cluster.scan-interval − kairos.cluster.wheel-reconcile-interval (3s)");
    t.preDispatch = ms(2_999);
    assertThat(TimingValidator.violations(t.build())).isEmpty();
    t.preDispatch = Duration.ZERO;
    assertThat(TimingValidator.violations(t.build())).isEmpty();
  }

  @Test
  void heartbeatMustBeShorterThanAThirdOfTheLeaderTimeout() {
    Timings t = new Timings();
    t.heartbeat = ms(1000);
    assertThat(TimingValidator.violations(t.build()))
        .containsExactly(
            "kairos.cluster.heartbeat-interval (1s) must be less than"
                + " kairos.cluster.leader-timeout / 3 (1s)");
    t.heartbeat = ms(999);
    assertThat(TimingValidator.violations(t.build())).isEmpty();
  }

  @Test
  void leaderTimeoutMustNotExceedTheSessionTimeout() {
    Timings t = new Timings();
    t.leader = ms(7000);
    t.preRead = ms(9000);
    t.misfire = ms(9000);
    assertThat(TimingValidator.violations(t.build()))
        .containsExactly(
            "kairos.cluster.leader-timeout (7s) must be at most"
                + " kairos.zookeeper.session-timeout (6s)");
    t.leader = ms(6000);
    assertThat(TimingValidator.violations(t.build())).isEmpty();
  }

  @Test
  void sessionTimeoutMustBeAtLeastTwoTicks() {
    Timings t = new Timings();
    t.tick = ms(3500);
    assertThat(TimingValidator.violations(t.build()))
        .containsExactly(
            "kairos.zookeeper.session-timeout (6s) must be at least 2 × kairos.zookeeper.tick-time"
                + " (the ZooKeeper servers' tickTime) (7s)");
    t.tick = ms(3000);
    assertThat(TimingValidator.violations(t.build())).isEmpty();
  }

  @Test
  void scanIntervalMustBeShorterThanThePreRead() {
    Timings t = new Timings();
    t.scan = ms(5000);
    assertThat(TimingValidator.violations(t.build()))
        .contains(
            "kairos.cluster.scan-interval (5s) must be less than kairos.cluster.pre-read (5s)");
  }

  @Test
  void preReadMustCoverLeaderTimeoutElectionAndOneScan() {
    Timings t = new Timings();
    t.preRead = ms(4500);
    t.misfire = ms(4500);
    t.preDispatch = ms(1_000); // the default lead has its own rule on the pre-read, tested above
    assertThat(TimingValidator.violations(t.build()))
        .containsExactly(
            "kairos.cluster.pre-read (4500ms) must be greater than kairos.cluster.leader-timeout +"
                + " kairos.cluster.election-budget + kairos.cluster.scan-interval (4500ms)");
    t.preRead = ms(4501);
    t.misfire = ms(4501);
    assertThat(TimingValidator.violations(t.build())).isEmpty();
  }

  @Test
  void reconcileMustRunBeforeAClaimedFireIsDue() {
    Timings t = new Timings();
    t.preDispatch = Duration.ZERO; // its own rule, below, includes the reconcile too
    t.reconcile = ms(4000);
    assertThat(TimingValidator.violations(t.build()))
        .containsExactly(
            "kairos.cluster.wheel-reconcile-interval (4s) must be less than"
                + " kairos.cluster.pre-read − kairos.cluster.scan-interval (4s)");
    t.reconcile = ms(3999);
    assertThat(TimingValidator.violations(t.build())).isEmpty();
  }

  @Test
  void misfireThresholdMustBeAtLeastThePreRead() {
    Timings t = new Timings();
    t.misfire = ms(4999);
    assertThat(TimingValidator.violations(t.build()))
        .containsExactly(
            "kairos.cluster.misfire-threshold (4999ms) must be at least kairos.cluster.pre-read"
                + " (5s)");
  }

  @Test
  void dedupWindowMustOutlastTheLongestRedelivery() {
    Timings t = new Timings();
    t.dedup = Duration.ofSeconds(130);
    assertThat(TimingValidator.violations(t.build()))
        .containsExactly(
            "kairos.cluster.dedup-window (130s) must be greater than kairos.cluster.slot-lease-ttl"
                + " + kairos.cluster.redelivery-budget (130s)");
    t.dedup = Duration.ofMillis(130_001);
    assertThat(TimingValidator.violations(t.build())).isEmpty();
  }

  @Test
  void leaseMustBeRenewedAtLeastTwicePerTtl() {
    Timings t = new Timings();
    t.leaseRenew = ms(5000);
    assertThat(TimingValidator.violations(t.build()))
        .containsExactly(
            "kairos.cluster.slot-lease-renew-interval (5s) must be less than"
                + " kairos.cluster.slot-lease-ttl / 2 (5s)");
  }

  @Test
  void everyDurationMustBePositive() {
    Timings t = new Timings();
    t.scan = Duration.ZERO;
    t.leaseTtl = ms(-1);
    assertThat(TimingValidator.violations(t.build()))
        .containsExactly(
            "kairos.cluster.scan-interval (0ms) must be positive",
            "kairos.cluster.slot-lease-ttl (-1ms) must be positive");
  }

  @Test
  void checkListsEveryViolationInOneException() {
    Timings t = new Timings();
    t.heartbeat = ms(2000);
    t.misfire = ms(1000);
    assertThatThrownBy(() -> TimingValidator.check(t.build()))
        .isInstanceOf(InvalidTimingException.class)
        .hasMessageContaining("violate 2 rule(s)")
        .hasMessageContaining("kairos.cluster.heartbeat-interval (2s)")
        .hasMessageContaining("kairos.cluster.misfire-threshold (1s)")
        .satisfies(e -> assertThat(((InvalidTimingException) e).violations()).hasSize(2));
  }

  @Test
  void formatsDurationsInTheirLargestExactUnit() {
    assertThat(TimingValidator.format(ms(500))).isEqualTo("500ms");
    assertThat(TimingValidator.format(ms(3000))).isEqualTo("3s");
    assertThat(TimingValidator.format(Duration.ofMinutes(10))).isEqualTo("10m");
    assertThat(TimingValidator.format(ms(1500))).isEqualTo("1500ms");
  }
}
