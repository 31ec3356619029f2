package dev.kairos.coordinator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The term state machine alone: every transition from facts, on a clock the test moves. */
class TermStateTest {

  private static final long TIMEOUT = 3_000;

  private final AtomicLong now = new AtomicLong(1_000_000);
  private final List<String> events = new ArrayList<>();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final TermState state =
      new TermState(
          "n1",
          TIMEOUT,
          now::get,
          new FollowerLiveness(TIMEOUT, now::get),
          new CopyOnWriteArrayList<>(List.of(recorder())),
          meters);
  private final Member other = new Member("n2", "i2", "a:2", 0);

  private LeadershipListener recorder() {
    return new LeadershipListener() {
      @Override
      public void onElected(long term) {
        events.add("elected " + term);
      }

      @Override
      public void onRevoked(long term) {
        events.add("revoked " + term);
      }

      @Override
      public void onTermObserved(long term) {
        events.add("observed " + term);
      }
    };
  }

  private void lead(long term) {
    TermState.Election election = state.electionStart();
    assertThat(state.claimFloor(election, null, null, 0)).isBetween(1L, term);
    assertThat(state.elected(term, election, true, List.of(other), null, "test")).isTrue();
  }

  @Test
  void anElectionWithNoLeaderAndNoHigherTermLeadsAndTellsTheListeners() {
    lead(1);

    assertThat(state.leadingTerm()).isEqualTo(1);
    assertThat(state.stillLeads(1)).isTrue();
    assertThat(events).containsExactly("observed 1", "elected 1");
    assertThat(meters.counter("kairos.election.won").count()).isEqualTo(1);
  }

  @Test
  void aHeartbeatOfAHigherTermStepsTheLeaderDownAndIsAnsweredWithIt() {
    lead(3);

    assertThat(state.onHeartbeat(4, "n2")).isEqualTo(4);

    assertThat(state.leadingTerm()).isZero();
    assertThat(state.observedTerm()).isEqualTo(4);
    assertThat(events).endsWith("observed 4", "revoked 3");
    assertThat(meters.counter("kairos.election.stepdowns", "reason", "higher-term").count())
        .isEqualTo(1);
  }

  @Test
  void aHeartbeatOfAnOlderTermChangesNothingAndIsAnsweredWithTheNewer() {
    lead(5);

    assertThat(state.onHeartbeat(4, "n2")).isEqualTo(5);
    assertThat(state.leadingTerm()).isEqualTo(5);
  }

  @Test
  void aFenceRejectionEndsTheTermAndTheFencesTermIsAdopted() {
    lead(2);

    state.onStaleTerm(2, 7);

    assertThat(state.leadingTerm()).isZero();
    assertThat(state.observedTerm()).isEqualTo(7);
    assertThat(meters.counter("kairos.election.stepdowns", "reason", "fence").count()).isEqualTo(1);
  }

  @Test
  void aSuspendedSessionStepsDownAndTicksNothingUntilReconnected() {
    lead(1);

    state.disconnected("SUSPENDED");

    assertThat(state.leadingTerm()).isZero();
    assertThat(state.tickTerm()).isEqualTo(-1);
    assertThat(state.electionStart()).as("no election while disconnected").isNull();
    state.reconnected();
    assertThat(state.tickTerm()).isZero();
  }

  @Test
  void aTermWonAcrossAConnectionDropIsNotLed() {
    TermState.Election election = state.electionStart();
    long floor = state.claimFloor(election, null, null, 0);
    state.disconnected("SUSPENDED");
    state.reconnected();

    assertThat(state.elected(floor, election, true, List.of(other), null, "test")).isFalse();
    assertThat(state.leadingTerm()).isZero();
  }

  @Test
  void aTermWonWhileTheNodeStopsIsNotLed() {
    TermState.Election election = state.electionStart();
    long floor = state.claimFloor(election, null, null, 0);

    assertThat(state.elected(floor, election, false, List.of(other), null, "test")).isFalse();
  }

  @Test
  void aTermAllocatedButNotPublishedGetsOneTimeoutBeforeThisNodeStandsAgain() {
    TermState.Election election = state.electionStart();

    assertThat(state.claimFloor(election, null, null, 4)).as("stand down").isZero();
    assertThat(state.observedTerm()).isEqualTo(4);
    assertThat(state.followerSees(null)).isFalse();
    now.addAndGet(TIMEOUT - 1);
    assertThat(state.followerSees(null)).isFalse();
    now.addAndGet(1);
    assertThat(state.followerSees(null)).isTrue();
  }

  @Test
  void aLeaderPublishedWhileTheElectionReadIsFollowedNotOutbid() {
    TermState.Election election = state.electionStart();
    LeaderRecord fresh = new LeaderRecord(6, "n2", "i2", "a:2");

    assertThat(state.claimFloor(election, null, fresh, 6)).isZero();
    assertThat(state.observedTerm()).isEqualTo(6);
    assertThat(state.leaderSilent()).as("the new leader gets a full timeout").isFalse();
  }

  @Test
  void aTermHeardDuringTheElectionsReadsStopsTheElection() {
    TermState.Election election = state.electionStart();
    state.onHeartbeat(3, "n2");

    assertThat(state.claimFloor(election, null, null, 3)).isZero();
  }

  @Test
  void aNewLeaderZnodeRestartsTheLeaderTimeout() {
    now.addAndGet(TIMEOUT);
    assertThat(state.leaderSilent()).isTrue();

    assertThat(state.followerSees(new LeaderRecord(2, "n2", "i2", "a:2"))).isTrue();

    assertThat(state.leaderSilent()).isFalse();
    now.addAndGet(TIMEOUT);
    assertThat(state.followerSees(new LeaderRecord(2, "n2", "i2", "a:2"))).isTrue();
    assertThat(state.leaderSilent()).as("the same leader, still silent").isTrue();
  }

  @Test
  void aFollowerStillHearsTheLeaderOnlyWithinTheTimeoutOfItsLastHeartbeat() {
    state.onHeartbeat(2, "n2");
    assertThat(state.stillHearsLeader(2)).isTrue();
    assertThat(state.stillHearsLeader(3)).as("a later term it never heard").isFalse();

    now.addAndGet(TIMEOUT);
    assertThat(state.stillHearsLeader(2)).isFalse();
  }

  @Test
  void aDeniedConfirmationBacksOffHalfATimeout() {
    state.confirmationDenied();

    assertThat(state.followerSees(null)).isFalse();
    now.addAndGet(TIMEOUT / 2);
    assertThat(state.followerSees(null)).isTrue();
  }

  @Test
  void aLostRaceAdoptsTheTermAndBacksOffOneTimeout() {
    state.lostRace(9);

    assertThat(state.observedTerm()).isEqualTo(9);
    assertThat(state.followerSees(null)).isFalse();
    now.addAndGet(TIMEOUT);
    assertThat(state.followerSees(null)).isTrue();
  }

  @Test
  void closingStepsDownAsAnOrderlyHandOver() {
    lead(1);

    state.closed();

    assertThat(state.leadingTerm()).isZero();
    assertThat(events).endsWith("revoked 1");
    assertThat(meters.counter("kairos.election.stepdowns", "reason", "closed").count())
        .isEqualTo(1);
  }
}
