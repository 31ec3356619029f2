package dev.kairos.drills;

import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.protocol.message.TopicNames;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one drill cluster of the test JVM: three scheduler nodes and two executors as child JVMs,
 * {@value #JOBS} jobs firing every second, on the shared embedded infrastructure. Starting one
 * costs a loaded 2-core machine 30–90 s (five JVMs boot at once, then the first pass claims every
 * job), so drills of one {@link DrillFamily} share it: the first drill of the family starts it,
 * every later one gets it back whole ({@link #restoreWhole}): every node process running, none
 * paused, drained or cut off, {@value #EXECUTORS} live executors each on a slot, three members
 * agreeing on one scanning leader, and the fires of a second due after that all started (the
 * backlog a fault left has drained). Each drill checks only the fires of its own window, which
 * opens after that, and reads its counters as differences over its window.
 *
 * <p>One cluster at a time: a drill of another family, or one that starts its own cluster ({@link
 * #closeCurrent}), closes the current one first, since two would share Redis (each start flushes
 * it) and the two cores. {@link DrillFamilyOrder} runs each family's drills one after another. When
 * a cluster cannot be made whole again (a drill failed half-way), it is closed and a fresh one
 * started, so a failure stays the failing drill's. Lives in JUnit's root store and is closed before
 * the infrastructure it runs on.
 */
final class SharedDrillCluster implements ExtensionContext.Store.CloseableResource {

  private static final Logger log = LoggerFactory.getLogger("drill");

  static final int NODES = 3;
  static final int EXECUTORS = 2;
  static final int JOBS = 300;
  static final int QUEUES = 4;

  // Five JVMs boot at once; on a loaded 2-core machine one Spring Boot start took over 70 s.
  static final Duration START_DEADLINE = Duration.ofSeconds(240);

  /** Until the leader has claimed a first fire of every new job (see start). */
  static final Duration STEADY_DEADLINE = Duration.ofSeconds(60);

  /** Until the fires of one second after the restore have all started (see restoreWhole). */
  static final Duration CAUGHT_UP_DEADLINE = Duration.ofSeconds(120);

  DrillFamily family;
  EmbeddedInfrastructure infra;
  DrillCluster cluster;
  KairosRedis redis;
  RedisKeys keys;
  StartLedger ledger;
  DrillJobs jobs;
  private int drills;

  /**
   * The cluster for a drill of {@code family}: the current one made whole, or a new one. (Every
   * class gets a view of its own of the one infrastructure pool; a family's classes ask for the
   * same components, so the first one's view serves them all.)
   */
  void acquire(DrillFamily wanted, EmbeddedInfrastructure infrastructure, String drill) {
    if (cluster != null && wanted.equals(family)) {
      long began = System.currentTimeMillis();
      try {
        restoreWhole();
        drills++;
        log.info(
            "drill {}: shares cluster {} ({} family, drill {} on it), whole again in {} ms",
            drill,
            cluster.app(),
            family.label(),
            drills,
            System.currentTimeMillis() - began);
        return;
      } catch (RuntimeException e) {
        log.warn(
            "drill {}: cluster {} could not be made whole again; starting a fresh one",
            drill,
            cluster.app(),
            e);
      }
    }
    closeCurrent();
    try {
      start(wanted, infrastructure);
    } catch (RuntimeException | Error e) {
      closeCurrent(); // a half-started cluster must not run beside the drills that follow
      throw e;
    }
    drills = 1;
  }

  /** Closes the current cluster, if any (a drill that starts a cluster of its own calls this). */
  void closeCurrent() {
    try {
      if (cluster != null) {
        cluster.close();
        StartLedger.forget(cluster.executors());
      }
    } finally {
      if (redis != null) {
        redis.close();
      }
      cluster = null;
      redis = null;
      family = null;
    }
  }

  @Override
  public void close() {
    closeCurrent();
  }

  private void start(DrillFamily wanted, EmbeddedInfrastructure infrastructure) {
    family = wanted;
    infra = infrastructure;
    String id = family.label() + "-" + UUID.randomUUID().toString().substring(0, 6);
    // Generous: the ledger pipelines thousands of reads while the machine runs five JVMs.
    Map<String, String> connection = infra.springProperties();
    redis =
        KairosRedis.connect(
            List.of(connection.get("kairos.redis.uris").split(",")),
            Boolean.parseBoolean(connection.get("kairos.redis.cluster")),
            Duration.ofSeconds(30));
    redis.sync().flushall();
    cluster = new DrillCluster(infra, Path.of("target", "drills", id), id, QUEUES);
    if (family.proxied()) {
      cluster.proxyNodeLinks();
    }
    if (family.fakeClock()) {
      cluster.fakeNodeClocks();
    }
    // What the first node would write; written here so executors start beside the nodes (an
    // executor refuses to start before the shard count exists).
    keys = new RedisKeys(ClusterMetadata.initialise(redis, RedisKeys.DEFAULT_SHARDS));
    // The executors create their handler topics at start through the broker's admin API, whose
    // 5 s timeout a loaded machine exceeds; created here in-process they only read the route.
    for (String handler : List.of(StartRecorder.HANDLER, "demoFast", "demoSlow", "demoFlaky")) {
      infra.rocketMq().createTopic(TopicNames.handlerTopic(id, handler), QUEUES);
    }
    String[] args = family.args().toArray(String[]::new);
    for (int i = 0; i < NODES; i++) {
      cluster.startNode(args);
    }
    for (int i = 0; i < EXECUTORS; i++) {
      cluster.startExecutor(args);
    }
    cluster.awaitMembers(cluster.nodes(), NODES, START_DEADLINE);
    DrillNode leader = cluster.awaitLeader(cluster.nodes(), START_DEADLINE);
    for (DrillExecutor executor : cluster.executors()) {
      cluster.awaitExecutorSlot(executor, START_DEADLINE);
    }
    ledger = new StartLedger(redis, keys);
    long created = System.currentTimeMillis();
    jobs = DrillJobs.create(new JobStore(redis, keys, System::currentTimeMillis), id, "job", JOBS);
    // Steady before any window opens: every job has been claimed once, so the first pass's burst
    // (each job's whole pre-read window) is behind the leader.
    Polling.until(
        STEADY_DEADLINE,
        "the leader claims a first fire of every drill job",
        () -> jobs.unclaimed(redis, keys).size(),
        unclaimed -> unclaimed == 0,
        "no unclaimed job");
    log.info(
        "drill cluster {}: {} nodes up, {} leads, {} executors hold slots, {} jobs created and all"
            + " claimed {} ms after their creation began",
        id,
        NODES,
        leader.name(),
        EXECUTORS,
        JOBS,
        System.currentTimeMillis() - created);
  }

  /**
   * Undoes what a drill left: heals every cut link, resumes a paused node, starts a node that is
   * not running (killed, or drained with exit) and restarts one that is drained but running, and
   * starts executors until {@value #EXECUTORS} live; then waits for the cluster to be whole and
   * caught up. Throws when it cannot be within the deadlines.
   */
  private void restoreWhole() {
    if (family.proxied()) {
      cluster.healAllLinks();
    }
    for (DrillNode node : cluster.nodes()) {
      if (node.process().isPaused()) {
        node.process().resume();
      }
      if (!node.process().isAlive()) {
        node.process().start();
      } else if (drained(node)) {
        log.info("drill cluster {}: {} is drained; restarting it", cluster.app(), node.name());
        node.process().restart();
      }
    }
    String[] args = family.args().toArray(String[]::new);
    while (liveExecutors().size() < EXECUTORS) {
      cluster.startExecutor(args);
    }
    cluster.awaitMembers(cluster.nodes(), NODES, START_DEADLINE);
    cluster.awaitLeader(cluster.nodes(), START_DEADLINE);
    for (DrillExecutor executor : liveExecutors()) {
      cluster.awaitExecutorSlot(executor, START_DEADLINE);
    }
    awaitCaughtUp();
  }

  /**
   * Waits until every fire of the next whole second but one has started: the cluster fires on time
   * again and whatever backlog the last drill left (queued in front of those fires) has drained.
   */
  private void awaitCaughtUp() {
    long second = Math.floorDiv(System.currentTimeMillis(), 1000) * 1000 + 2000;
    List<String> ids = jobs.expectedTriggerIds(second, second + 1000);
    Polling.until(
        CAUGHT_UP_DEADLINE,
        "the " + ids.size() + " fires due at " + Instant.ofEpochMilli(second) + " start",
        () -> ledger.observe(ids, cluster.executors()).missed().size(),
        missing -> missing == 0,
        "none left without a start");
  }

  /**
   * Whether {@code node} answers that it was drained (a running node that does not answer is not).
   */
  private static boolean drained(DrillNode node) {
    try {
      return !"SERVING".equals(node.probe().drainStatus().path("phase").asText());
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The executors whose process runs. */
  List<DrillExecutor> liveExecutors() {
    List<DrillExecutor> live = new ArrayList<>();
    for (DrillExecutor executor : cluster.executors()) {
      if (executor.process().isAlive()) {
        live.add(executor);
      }
    }
    return live;
  }

  /**
   * Resolves a {@link SharedDrillCluster} parameter to the one in JUnit's root store. Resolved in a
   * {@code @BeforeAll} method, after {@code @RealInfra} put the infrastructure there: the root
   * store closes its values in the reverse order they were stored, so the cluster goes first.
   */
  static final class Resolver implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(SharedDrillCluster.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == SharedDrillCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      return context
          .getRoot()
          .getStore(NAMESPACE)
          .getOrComputeIfAbsent(
              SharedDrillCluster.class, k -> new SharedDrillCluster(), SharedDrillCluster.class);
    }
  }
}
