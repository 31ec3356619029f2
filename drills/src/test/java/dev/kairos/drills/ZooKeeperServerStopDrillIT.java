package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.devinfra.EmbeddedZooKeeperEnsemble;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * One ZooKeeper server of the 3-server ensemble stops (a crash; the quorum of two is kept) for 15
 * s. Which server holds which scheduler node's session is the ZooKeeper clients' random choice, so
 * the drill picks the server by what it holds and asserts what that case must cost:
 *
 * <ul>
 *   <li><b>followers only</b> (preferred: a server that is not the quorum leader and holds a
 *       follower's session but not the leader's): their clients move to the other servers within
 *       the session timeout; no election, same leader and term;
 *   <li><b>the leader's</b> (no server qualifies above, one that is not the quorum leader holds the
 *       leader's session): the leader sees SUSPENDED and steps down at once (docs/design.md
 *       "Leadership"); a higher term leads — a ZooKeeper blip costs one term change, not fires;
 *   <li><b>the quorum leader</b> (every node's session sits on it, so no other server's loss would
 *       touch a node): the remaining two elect a quorum leader and every client reconnects; the
 *       leader steps down on SUSPENDED and a higher term leads.
 * </ul>
 *
 * <p>In every case each node's session survives (its client moves to another server) and no fire is
 * missed or started twice.
 */
// First of its family: it asserts that losing a follower's server costs no election, so it gets the
// cluster before any other drill's fault (a quorum loss) has moved sessions and terms around.
@Order(-1)
class ZooKeeperServerStopDrillIT extends DrillBase {

  private static final Duration FAULT = Duration.ofSeconds(15);

  @Test
  void losingOneServerOfTheEnsembleCostsNoFireAndAtMostTheLeadersTerm() throws Exception {
    EmbeddedZooKeeperEnsemble zk = infra.zookeeperEnsemble();
    long from = System.currentTimeMillis() + 2_000;
    letRun(BEFORE_FAULT);
    DrillNode leader = leader(cluster.nodes());
    long term = leader.probe().cluster().term();
    Map<String, String> sessions = new LinkedHashMap<>();
    for (DrillNode node : cluster.nodes()) {
      sessions.put(node.name(), answer(node, "session", () -> node.probe().zookeeperSessionId()));
    }
    String leaderSession = sessions.get(leader.name());
    int quorumLeader =
        IntStream.range(0, zk.size())
            .filter(i -> ZkFourLetterWords.isQuorumLeader(zk.port(i)))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no ZooKeeper server leads the quorum"));
    List<Integer> others =
        IntStream.range(0, zk.size()).filter(i -> i != quorumLeader).boxed().toList();
    Map<Integer, Set<String>> held = new LinkedHashMap<>();
    for (int i = 0; i < zk.size(); i++) {
      held.put(i, ZkFourLetterWords.sessionIds(zk.port(i)));
    }
    Optional<Integer> followersOnly =
        others.stream()
            .filter(i -> !held.get(i).contains(leaderSession))
            .filter(i -> sessions.values().stream().anyMatch(held.get(i)::contains))
            .findFirst();
    Optional<Integer> leaders =
        others.stream().filter(i -> held.get(i).contains(leaderSession)).findFirst();
    int server = followersOnly.or(() -> leaders).orElse(quorumLeader);
    String kind =
        followersOnly.isPresent()
            ? "followers only"
            : leaders.isPresent() ? "the leader's" : "the quorum leader, holding every session";
    List<String> onServer =
        sessions.entrySet().stream()
            .filter(e -> held.get(server).contains(e.getValue()))
            .map(Map.Entry::getKey)
            .toList();
    double electionsBefore = sum(cluster.nodes(), "kairos_election_won_total");
    double movedBefore = sum(cluster.nodes(), "kairos_failover_entries_moved_total");
    double suspendedBefore = stepdowns(leader, "zookeeper-suspended");
    long steadyTo = System.currentTimeMillis();

    long stoppedAt = System.currentTimeMillis();
    zk.stopServer(server);
    try {
      letRun(FAULT);
    } finally {
      zk.restartServer(server); // the ensemble is shared by every drill of this JVM
    }
    long to = System.currentTimeMillis();

    DrillNode after = leader(cluster.nodes());
    long termAfter = after.probe().cluster().term();
    Map<String, String> sessionsAfter = new LinkedHashMap<>();
    for (DrillNode node : cluster.nodes()) {
      sessionsAfter.put(
          node.name(), answer(node, "session", () -> node.probe().zookeeperSessionId()));
    }
    StartLedger.Outcome outcome =
        ledger.awaitStarts(jobs, from, to, cluster.executors(), STARTS_STALL, STARTS_CAP);
    double elections = sum(cluster.nodes(), "kairos_election_won_total") - electionsBefore;
    double moved = sum(cluster.nodes(), "kairos_failover_entries_moved_total") - movedBefore;
    double suspended = stepdowns(leader, "zookeeper-suspended") - suspendedBefore;
    log.info(
        "DRILL zookeeper-server-stop: stopped server {} of {} for {} ms, holding the sessions of"
            + " {} ({}); leader before {} (term {}), after {} (term {}); elections {}, leader"
            + " step-downs on SUSPENDED {}, entries moved {}; sessions before {} after {};"
            + " lateness before {} during {}; window {}",
        server,
        zk.size(),
        to - stoppedAt,
        onServer,
        kind,
        leader.name(),
        term,
        after.name(),
        termAfter,
        elections,
        suspended,
        moved,
        sessions,
        sessionsAfter,
        outcome.latenessOf(jobs.expectedTriggerIds(from, steadyTo)),
        outcome.latenessOf(jobs.expectedTriggerIds(stoppedAt, to)),
        outcome.summary());
    logDispatchLateness("zookeeper-server-stop", from, to);

    assertThat(sessionsAfter)
        .as("every node's ZooKeeper session survives: its client moved to another server")
        .isEqualTo(sessions);
    if (followersOnly.isPresent()) {
      assertThat(elections).as("elections won during the fault").isZero();
      assertThat(termAfter).as("the term").isEqualTo(term);
      assertThat(after).as("the leader").isEqualTo(leader);
    } else {
      assertThat(suspended).as(leader.name() + " stepped down on SUSPENDED").isPositive();
      assertThat(termAfter).as("the term after the leader's step-down").isGreaterThan(term);
    }
    assertNoneMissed(outcome.missed(), "expected fires with no start");
    assertThat(outcome.duplicates()).as("trigger ids started twice").isEmpty();
  }

  private static double stepdowns(DrillNode node, String reason) {
    return answer(
        node,
        "step-downs",
        () -> node.probe().metric("kairos_election_stepdowns_total", Map.of("reason", reason)));
  }

  /** Asks a node until it answers (a starved node may miss one probe's timeout). */
  private static <T> T answer(DrillNode node, String what, Supplier<T> ask) {
    return Polling.value(
        TAKEOVER_DEADLINE, node.name() + " answers " + what, () -> Optional.of(ask.get()));
  }
}
