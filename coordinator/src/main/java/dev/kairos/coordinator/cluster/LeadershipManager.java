package dev.kairos.coordinator.cluster;

import dev.kairos.coordinator.assign.LiveNodes;
import dev.kairos.protocol.fence.StaleTermException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Term election, leader heartbeats, down-confirmation and step-down for one node (docs/design.md
 * "Leadership").
 *
 * <ul>
 *   <li>No leader znode: become a candidate for {@link TermAllocator#nextTerm()}.
 *   <li>A leader znode but no heartbeat for the leader timeout: ask every other member whether it
 *       still hears the leader; become a candidate only with a majority of the ZooKeeper membership
 *       (the suspect leader counted) confirming it is down.
 *   <li>A won term replaces a lower-term leader znode atomically; losing the race for T backs off
 *       one leader timeout so the winner can publish itself.
 *   <li>Any higher term seen (heartbeat, reply, leader znode, fence) is adopted at once; a leader
 *       seeing one steps down. SUSPENDED or LOST steps down at once (no scanning, assigning or
 *       heartbeating); after RECONNECTED the node deletes its own stale leader znode and rejoins as
 *       a follower.
 * </ul>
 *
 * <p>This class does the I/O and the loop: the heartbeats and questions to the other nodes ({@link
 * ClusterTransport}), the terms ({@link TermAllocator}) and the leader znode ({@link LeaderZnode});
 * every transition is {@link TermState}'s, made from what was read. Threads: one named loop thread
 * ticks every heartbeat interval (heartbeats, checks, elections); the term state's monitor is never
 * held while calling the transport or ZooKeeper, so two managers calling each other cannot
 * deadlock.
 */
public final class LeadershipManager implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LeadershipManager.class);

  private enum State {
    LATENT,
    STARTED,
    CLOSED
  }

  private final CuratorFramework client;
  private final ZkMembership membership;
  private final TermAllocator terms;
  private final ClusterTransport transport;
  private final ElectionConfig config;
  private final Member self;
  private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
  private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();
  private final ConnectionStateListener connectionListener = this::connectionChanged;
  private final Counter electionsLost;
  private final Counter confirmationsDenied;
  private final Counter heartbeatFailures;
  private final Counter loopErrors;
  private final Counter followersDeclaredDead;
  private final Counter abstentions;
  private final BooleanSupplier reachesRedis;
  private final FollowerLiveness liveness;
  private final TermState termState;
  private final LeaderZnode leaderZnode;

  /** Only the loop thread touches these. */
  private boolean warnedTwoMembers;

  private boolean abstaining;

  private ScheduledExecutorService loop;

  public LeadershipManager(
      CuratorFramework client,
      ZkLayout layout,
      ZkMembership membership,
      TermAllocator terms,
      ClusterTransport transport,
      ElectionConfig config,
      LongSupplier nanos,
      MeterRegistry meters) {
    this(client, layout, membership, terms, transport, config, nanos, () -> true, meters);
  }

  /**
   * @param reachesRedis whether this node reaches Redis ({@link RedisReachability}): a leader that
   *     does not steps down, and a node that does not never stands for election, so a node cut off
   *     from Redis but not from ZooKeeper cannot hold leadership it cannot exercise
   */
  public LeadershipManager(
      CuratorFramework client,
      ZkLayout layout,
      ZkMembership membership,
      TermAllocator terms,
      ClusterTransport transport,
      ElectionConfig config,
      LongSupplier nanos,
      BooleanSupplier reachesRedis,
      MeterRegistry meters) {
    this.reachesRedis = reachesRedis;
    this.client = client;
    this.membership = membership;
    this.terms = terms;
    this.transport = transport;
    this.config = config;
    this.self = membership.self();
    long timeoutNanos = config.leaderTimeout().toNanos();
    this.electionsLost = meters.counter("kairos.election.lost");
    this.confirmationsDenied = meters.counter("kairos.election.confirmations.denied");
    this.heartbeatFailures = meters.counter("kairos.election.heartbeat.failures");
    this.loopErrors = meters.counter("kairos.election.loop.errors");
    this.followersDeclaredDead = meters.counter("kairos.cluster.followers.declared.dead");
    this.abstentions = meters.counter("kairos.election.abstentions");
    meters.counter("kairos.election.won"); // registered from the start, like the others
    this.liveness = new FollowerLiveness(timeoutNanos, nanos);
    this.termState = new TermState(self.name(), timeoutNanos, nanos, liveness, listeners, meters);
    this.leaderZnode = new LeaderZnode(client, layout);
  }

  /**
   * The ZooKeeper members minus those this node, while it leads, declared dead for not answering
   * its heartbeats for the leader timeout: whom the scanner may assign fires to and whose entries
   * the sweeper leaves in place.
   */
  public LiveNodes responsiveMembers() {
    return () -> membership.current().stream().filter(liveness::isResponsive).toList();
  }

  public void addListener(LeadershipListener listener) {
    listeners.add(listener);
  }

  public String incarnation() {
    return self.incarnation();
  }

  /** The term this node leads, or 0. */
  public long leadingTerm() {
    return termState.leadingTerm();
  }

  /** The highest term this node has seen. */
  public long observedTerm() {
    return termState.observedTerm();
  }

  public boolean isLeader() {
    return leadingTerm() > 0;
  }

  public void start() {
    if (!state.compareAndSet(State.LATENT, State.STARTED)) {
      throw new IllegalStateException(
          "leadership of " + self.name() + " was already " + state.get());
    }
    termState.heardNow();
    loop =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "kairos-leadership-" + self.name());
              thread.setDaemon(true);
              return thread;
            });
    leaderZnode.start(this::nudge);
    client.getConnectionStateListenable().addListener(connectionListener);
    long every = config.heartbeatInterval().toMillis();
    loop.scheduleWithFixedDelay(this::tick, 0, every, TimeUnit.MILLISECONDS);
  }

  private void nudge() {
    if (state.get() == State.STARTED) {
      try {
        loop.execute(this::tick);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // closing
      }
    }
  }

  // ---- receiver side (called by the transport's server on its own threads)

  /**
   * A heartbeat from {@code leaderId} for {@code term}.
   *
   * @return the highest term this node knows of
   */
  public long onHeartbeat(long term, String leaderId) {
    return termState.onHeartbeat(term, leaderId);
  }

  /**
   * Whether this node can take fires: it reaches Redis. A follower that cannot answers the leader's
   * heartbeats with a refusal after hearing them, so the leader stops assigning to it and, after
   * the leader timeout, moves its wheel to nodes that can fire it (moving a live node's entries is
   * safe: a node fires only from its own keys); once it reaches Redis again its answers make it
   * responsive again.
   */
  public boolean servesFires() {
    return reachesRedis.getAsBoolean();
  }

  /** Whether this node leads {@code term} or higher, or heard a leader of it within the timeout. */
  public boolean stillHearsLeader(long term) {
    return termState.stillHearsLeader(term);
  }

  /** For {@code ScanLoop}'s and the sweeper's fence rejections: step down, adopt the fence. */
  public void onStaleTerm(StaleTermException e) {
    termState.onStaleTerm(e.term(), e.fence());
  }

  // ---- the loop

  private void tick() {
    if (state.get() != State.STARTED) {
      return;
    }
    try {
      long leading = termState.tickTerm();
      if (leading > 0) {
        leaderTick(leading);
      } else if (leading == 0) {
        followerTick();
      }
    } catch (RuntimeException e) {
      loopErrors.increment();
      log.warn("node={} leadership tick failed; the loop will keep running", self.name(), e);
    }
  }

  private void leaderTick(long term) {
    if (!reachesRedis.getAsBoolean()) {
      // Liveness: heartbeats would keep followers from electing a leader that can scan.
      termState.stepDown(
          term,
          "redis-unreachable",
          "Redis has not answered for the leader timeout ("
              + config.leaderTimeout().toMillis()
              + " ms)");
      return;
    }
    LeaderRecord znode = leaderZnode.cached();
    if (znode != null && znode.term() > term) {
      termState.observe(znode.term(), "leader znode");
      return;
    }
    List<Member> members = membership.members();
    warnIfTwoMembers(term, members.size());
    for (Member member : members) {
      if (member.name().equals(self.name())) {
        continue;
      }
      if (!termState.stillLeads(term)) {
        return; // Safety: revoked mid-round (SUSPENDED, higher term): not one more heartbeat.
      }
      try {
        long theirs = transport.heartbeat(member, term, self.name());
        liveness.answered(member);
        termState.observe(theirs, "heartbeat reply of " + member.name());
      } catch (RuntimeException e) {
        heartbeatFailures.increment();
        log.debug("term={} heartbeat to {} failed: {}", term, member.name(), e.toString());
      }
    }
    declareSilentFollowersDead(term);
  }

  /**
   * docs/design.md "Leadership": a majority of two is two, so with two members a dead leader is
   * replaced only once its ZooKeeper session expires and its znode vanishes: failover then takes
   * the session timeout, beyond the pre-read budget. Said once each time the cluster shrinks or
   * grows to two.
   */
  private void warnIfTwoMembers(long term, int members) {
    if (members != 2) {
      warnedTwoMembers = false;
      return;
    }
    if (!warnedTwoMembers) {
      warnedTwoMembers = true;
      log.warn(
          "term={} the cluster has 2 members: if one dies, the other cannot get a majority to"
              + " confirm it down and takes over only when its ZooKeeper session expires ({} ms),"
              + " beyond the pre-read window; run 3 or more nodes",
          term,
          config.sessionTimeout().toMillis());
    }
  }

  private void declareSilentFollowersDead(long term) {
    List<Member> dead = liveness.expire(membership.members(), self.name());
    for (Member member : dead) {
      if (termState.leadingTerm() != term) {
        return;
      }
      followersDeclaredDead.increment();
      log.warn(
          "term={} node={} (incarnation {}) has not answered heartbeats for {} ms: declared dead,"
              + " its wheel moves to live nodes",
          term,
          member.name(),
          member.incarnation(),
          config.leaderTimeout().toMillis());
      listeners.forEach(l -> l.onFollowerDead(term, member));
    }
  }

  private void followerTick() {
    LeaderRecord znode = leaderZnode.cached();
    if (!termState.followerSees(znode)) {
      return;
    }
    if (znode != null
        && znode.leaderId().equals(self.name())
        && znode.incarnation().equals(self.incarnation())) {
      if (leaderZnode.deleteIfStill(znode, self.incarnation())) {
        log.info("node={} deleted its stale leader znode of term {}", self.name(), znode.term());
      }
      return;
    }
    if (!mayStand()) {
      return;
    }
    if (znode == null) {
      runElection(null, "no leader znode");
      return;
    }
    if (!termState.leaderSilent()) {
      return;
    }
    if (leaderConfirmedDown(znode)) {
      runElection(
          znode, "leader " + znode.leaderId() + " of term " + znode.term() + " confirmed down");
    } else {
      confirmationsDenied.increment();
      termState.confirmationDenied();
    }
  }

  /**
   * Whether this node may stand for election: only while it reaches Redis, since a leader that
   * cannot scan would hold the cluster's fires until it stepped down again. Logged on each change.
   */
  private boolean mayStand() {
    boolean reaches = reachesRedis.getAsBoolean();
    if (reaches == !abstaining) {
      return reaches;
    }
    abstaining = !reaches;
    if (abstaining) {
      abstentions.increment();
      log.warn(
          "node={} does not reach Redis: it will not stand for election until it does",
          self.name());
    } else {
      log.info("node={} reaches Redis again and may stand for election", self.name());
    }
    return reaches;
  }

  /** Majority of the ZooKeeper membership (suspect leader included) says the leader is down. */
  private boolean leaderConfirmedDown(LeaderRecord suspect) {
    List<Member> members = membership.members();
    int votes = 1; // this node does not hear it
    for (Member member : members) {
      if (member.name().equals(self.name()) || member.name().equals(suspect.leaderId())) {
        continue;
      }
      try {
        if (!transport.askStillHearLeader(member, suspect.term())) {
          votes++;
        }
      } catch (RuntimeException e) {
        log.debug(
            "could not ask {} about term {}: {}", member.name(), suspect.term(), e.toString());
      }
    }
    boolean down = 2 * votes > Math.max(members.size(), 1);
    log.info(
        "node={} suspects leader {} of term {}: {} of {} members confirm it is down -> {}",
        self.name(),
        suspect.leaderId(),
        suspect.term(),
        votes,
        members.size(),
        down ? "candidate" : "denied");
    return down;
  }

  /**
   * @param suspect the leader confirmed down, or null when there was no leader znode
   */
  private void runElection(LeaderRecord suspect, String reason) {
    TermState.Election election = termState.electionStart();
    if (election == null) {
      return;
    }
    // Safety: the cache may lag; a leader published since, or a term won but not yet published,
    // gets one leader timeout before this node competes with it.
    LeaderRecord current = leaderZnode.read();
    long allocated = terms.highestAllocated();
    long floor = termState.claimFloor(election, suspect, current, allocated);
    if (floor == 0) {
      return;
    }
    // Safety: above the terms read BEFORE the leader check, never re-read: a term won since then
    // makes this claim fail (lost race) instead of silently outbidding an unpublished winner.
    long term = Math.max(terms.nextTermAbove(allocated), floor);
    if (!terms.tryClaim(term, self.name() + "/" + self.incarnation())) {
      electionsLost.increment();
      termState.lostRace(term);
      log.info("node={} lost the race for term {} ({})", self.name(), term, reason);
      return;
    }
    // This node owns `term` forever; it leads it only if it can publish it.
    LeaderZnode.Publish published =
        leaderZnode.publish(
            new LeaderRecord(term, self.name(), self.incarnation(), self.internalAddress()));
    if (published.higherTerm() > 0) {
      termState.observe(published.higherTerm(), "leader znode");
    }
    if (!published.published()) {
      return;
    }
    boolean leads =
        termState.elected(
            term, election, state.get() == State.STARTED, membership.members(), suspect, reason);
    if (leads) {
      leaderTick(term); // heartbeat at once
      pruneOldTerms(term);
    }
  }

  /** Keeps ZooKeeper's term history bounded; a failure costs nothing but a warning. */
  private void pruneOldTerms(long term) {
    try {
      int pruned = terms.prune(term);
      if (pruned > 0) {
        log.info("term={} pruned {} old term znodes", term, pruned);
      }
    } catch (RuntimeException e) {
      log.warn("term={} could not prune old term znodes; the next leader will", term, e);
    }
  }

  private void connectionChanged(CuratorFramework c, ConnectionState newState) {
    switch (newState) {
      case SUSPENDED, LOST, READ_ONLY -> termState.disconnected(newState.name());
      case CONNECTED, RECONNECTED -> termState.reconnected();
      default -> {}
    }
    nudge();
  }

  /** Steps down (onRevoked) if leading, stops the loop and watches; close twice is a no-op. */
  @Override
  public void close() {
    State previous = state.getAndSet(State.CLOSED);
    if (previous != State.STARTED) {
      return;
    }
    client.getConnectionStateListenable().removeListener(connectionListener);
    loop.shutdownNow();
    try {
      if (!loop.awaitTermination(5, TimeUnit.SECONDS)) {
        log.warn("node={} leadership thread did not stop within 5 s", self.name());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    termState.closed();
    // A graceful stop hands over at once: the others elect without waiting for the session.
    if (leaderZnode.connected()) {
      try {
        LeaderRecord own = leaderZnode.read(); // not the cache: it may lag behind our own publish
        if (own != null && own.incarnation().equals(self.incarnation())) {
          leaderZnode.deleteIfStill(own, self.incarnation());
        }
      } catch (RuntimeException e) {
        log.warn(
            "node={} could not delete its leader znode; it expires with the session",
            self.name(),
            e);
      }
    }
    leaderZnode.close();
  }
}
