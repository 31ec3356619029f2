package dev.kairos.drills;

import dev.kairos.cluster.process.ChildJvm;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scheduler nodes and executors as child JVMs against the embedded infrastructure of the test JVM,
 * all on loopback: {@code node-1..n} ({@link dev.kairos.node.KairosNodeApplication}) and {@code
 * exec-1..m} ({@link DrillExecutorMain}). One cluster id names its ZooKeeper root and its executor
 * app, so drills sharing the infrastructure never see each other's members, topics or slots. {@link
 * #close()} kills every process it started.
 */
public final class DrillCluster implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DrillCluster.class);

  /** Child JVMs are small: the whole drill runs on a 2-core build machine. */
  public static final List<String> DRILL_JVM_OPTIONS =
      List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k");

  private final EmbeddedInfrastructure infra;
  private final Path dir;
  private final String id;
  private final String secret = "drill-secret-" + UUID.randomUUID();
  private final int queues;
  private final List<String> childJvmOptions;
  private final List<DrillNode> nodes = new ArrayList<>();
  private final List<DrillExecutor> executors = new ArrayList<>();
  private final Map<String, NodeLinks> links = new LinkedHashMap<>();
  private boolean proxiedLinks;
  private Path libfaketime;
  private final Set<String> fakeClocks = new HashSet<>();

  /** Admin token for the nodes' protected actuator endpoints; only its SHA-256 is configured. */
  private final String adminToken = "drill-admin-" + UUID.randomUUID();

  /**
   * @param dir logs, start logs and stats files go here (one file per process)
   * @param id names the ZooKeeper root ({@code /<id>}) and the executor app
   * @param queues queues per handler topic = executor slots of the app
   */
  public DrillCluster(EmbeddedInfrastructure infra, Path dir, String id, int queues) {
    this(infra, dir, id, queues, DRILL_JVM_OPTIONS);
  }

  /**
   * As {@link #DrillCluster(EmbeddedInfrastructure, Path, String, int)} with the child JVMs'
   * options (heap, GC, JIT) chosen by the caller instead of the drills' small {@link
   * #DRILL_JVM_OPTIONS}; a benchmark wants the options a deployment would use.
   */
  public DrillCluster(
      EmbeddedInfrastructure infra, Path dir, String id, int queues, List<String> childJvmOptions) {
    this.infra = infra;
    this.dir = dir.toAbsolutePath();
    this.id = id;
    this.queues = queues;
    this.childJvmOptions = List.copyOf(childJvmOptions);
  }

  /** The ADMIN bearer token every node accepts (for the admin REST API and the actuator). */
  public String adminToken() {
    return adminToken;
  }

  /** The executor app of the drill's jobs. */
  public String app() {
    return id;
  }

  public List<DrillNode> nodes() {
    return List.copyOf(nodes);
  }

  public List<DrillExecutor> executors() {
    return List.copyOf(executors);
  }

  public DrillNode node(String name) {
    return nodes.stream()
        .filter(n -> n.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no node " + name));
  }

  /**
   * From now on every started node reaches ZooKeeper and Redis through proxies of its own ({@link
   * NodeLinks}), so a drill can partition one node from either.
   */
  public void proxyNodeLinks() {
    proxiedLinks = true;
  }

  /**
   * The next started node runs under libfaketime (Debian's {@code faketime} package) with a clock
   * file of its own, initially no offset, so a drill can step one node's wall clock ({@link
   * #stepClock}) the way an NTP step or an operator's {@code date -s} would. Only the wall clock is
   * faked: the monotonic clock keeps running, as it does through a real step.
   *
   * @throws IllegalStateException when libfaketime is not installed
   */
  public void fakeNodeClocks() {
    libfaketime = FakeClock.library();
  }

  /** Whether {@code node} runs under a fake clock (started after {@link #fakeNodeClocks}). */
  public boolean hasFakeClock(DrillNode node) {
    return fakeClocks.contains(node.name());
  }

  /**
   * Sets {@code node}'s wall-clock offset from the machine's, in libfaketime's syntax ({@code
   * "+30s"}, {@code "-30s"}, {@code "+0"}); the node sees it within a second.
   */
  public void stepClock(DrillNode node, String offset) {
    FakeClock.write(clockFile(node.name()), offset);
  }

  private Path clockFile(String nodeName) {
    return dir.resolve(nodeName + ".faketime").toAbsolutePath();
  }

  /** The proxied paths of a node started after {@link #proxyNodeLinks}. */
  public NodeLinks links(DrillNode node) {
    NodeLinks nodeLinks = links.get(node.name());
    if (nodeLinks == null) {
      throw new IllegalStateException(node.name() + " was started without proxied links");
    }
    return nodeLinks;
  }

  /**
   * Adds and starts {@code node-<k>} (k = nodes so far + 1) on a free port; returns without waiting
   * for it to be up. Extra arguments (e.g. {@code --kairos.cluster.leader-timeout=2s}) go last.
   */
  public DrillNode startNode(String... extraArgs) {
    String name = "node-" + (nodes.size() + 1);
    int port = FreePorts.pick();
    List<String> args = new ArrayList<>();
    Map<String, String> connections = new LinkedHashMap<>(infra.springProperties());
    if (proxiedLinks) {
      NodeLinks nodeLinks = NodeLinks.start(name, connections);
      links.put(name, nodeLinks);
      connections.putAll(nodeLinks.overrides());
    }
    connections.forEach((k, v) -> args.add("--" + k + "=" + v));
    args.add("--server.port=" + port);
    args.add("--kairos.node.name=" + name);
    args.add("--kairos.node.internal-address=127.0.0.1:" + port);
    args.add("--kairos.zookeeper.root-path=/" + id);
    args.add("--kairos.cluster.secret=" + secret);
    args.add("--kairos.rocketmq.default-queue-count=" + queues);
    // PostgreSQL only in the drills that test the history (it costs a server): the nodes sync to
    // it when the infrastructure has one.
    args.add("--kairos.sync.enabled=" + (infra.postgres() != null));
    args.add("--spring.application.name=" + name);
    // Prometheus needs an ADMIN bearer token once the admin API secures the actuator.
    args.add("--kairos.api.tokens[0].name=drill");
    args.add("--kairos.api.tokens[0].sha256=" + sha256Hex(adminToken));
    args.add("--kairos.api.tokens[0].role=ADMIN");
    args.addAll(List.of(extraArgs));
    ChildJvm jvm =
        new ChildJvm(
            name,
            "dev.kairos.node.KairosNodeApplication",
            jvmOptions(name),
            args,
            dir.resolve(name + ".log"));
    if (libfaketime != null) {
      Path clock = clockFile(name);
      FakeClock.write(clock, "+0");
      jvm = jvm.withEnvironment(FakeClock.environment(libfaketime, clock));
      fakeClocks.add(name);
      // One node: libfaketime costs every clock read ~0.5 µs and a JVM's start slows down a lot.
      libfaketime = null;
    }
    DrillNode node = new DrillNode(name, port, jvm, new NodeProbe(port, adminToken));
    nodes.add(node);
    jvm.start();
    return node;
  }

  /**
   * Adds and starts executor {@code exec-<k>} of the drill's app with a fresh instance id; returns
   * without waiting (see {@link #awaitExecutorSlot}).
   */
  public DrillExecutor startExecutor(String... extraArgs) {
    String name = "exec-" + (executors.size() + 1);
    String instanceId = name + "-" + UUID.randomUUID().toString().substring(0, 8);
    Path startLog = dir.resolve(name + ".starts");
    Path stats = dir.resolve(name + ".stats");
    Map<String, String> infraProperties = infra.springProperties();
    List<String> args = new ArrayList<>();
    infraProperties.forEach((k, v) -> args.add("--" + k + "=" + v));
    args.add("--kairos.executor.app=" + id);
    args.add("--kairos.executor.instance-id=" + instanceId);
    args.add("--kairos.executor.host=127.0.0.1");
    args.add("--kairos.rocketmq.default-queue-count=" + queues);
    args.add("--drills.start-log=" + startLog);
    args.add("--drills.stats-file=" + stats);
    args.addAll(List.of(extraArgs));
    ChildJvm jvm =
        new ChildJvm(
            name,
            DrillExecutorMain.class.getName(),
            jvmOptions(name),
            args,
            dir.resolve(name + ".log"));
    DrillExecutor executor = new DrillExecutor(instanceId, jvm, startLog, stats);
    executors.add(executor);
    jvm.start();
    return executor;
  }

  private static String sha256Hex(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    }
  }

  private List<String> jvmOptions(String name) {
    Path tmp = dir.resolve("tmp").resolve(name);
    try {
      Files.createDirectories(tmp); // Tomcat and RocketMQ write there; the JVM never creates it
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + tmp, e);
    }
    List<String> options = new ArrayList<>(childJvmOptions);
    options.add("-Djava.io.tmpdir=" + tmp);
    options.add("-Dkairos.drill.process=" + id + "/" + name); // visible in ps, for humans
    return options;
  }

  /** Waits until {@code executor} holds a slot (its stats file names one). */
  public void awaitExecutorSlot(DrillExecutor executor, Duration timeout) {
    Polling.until(
        timeout,
        executor.instanceId() + " holds a slot",
        () -> {
          if (!executor.process().isAlive()) {
            throw new ProcessExitedException(executor.process());
          }
          return executor.slot();
        },
        slot -> slot >= 0,
        "a slot (>= 0)");
  }

  /**
   * Waits until every node in {@code expected} that is alive agrees on one leader that has
   * completed a scan pass of its term, and returns the leader; a timeout reports each node's last
   * view.
   */
  public DrillNode awaitLeader(List<DrillNode> expected, Duration timeout) {
    Map<String, NodeProbe.ClusterView> views =
        Polling.until(
            timeout,
            "one scanning leader agreed by " + expected,
            () -> {
              Map<String, NodeProbe.ClusterView> seen = new LinkedHashMap<>();
              for (DrillNode node : expected) {
                seen.put(node.name(), node.probe().cluster());
              }
              return seen;
            },
            seen -> agreedLeader(seen).isPresent(),
            "every node naming one leader of one term, that leader scanning");
    return node(agreedLeader(views).orElseThrow());
  }

  private static Optional<String> agreedLeader(Map<String, NodeProbe.ClusterView> views) {
    String leader = null;
    long term = -1;
    for (NodeProbe.ClusterView view : views.values()) {
      if (view.leader().isEmpty() || (leader != null && !leader.equals(view.leader()))) {
        return Optional.empty();
      }
      if (term >= 0 && term != view.term()) {
        return Optional.empty();
      }
      leader = view.leader();
      term = view.term();
    }
    NodeProbe.ClusterView own = views.get(leader);
    return own != null && own.scanning() ? Optional.of(leader) : Optional.empty();
  }

  /**
   * Waits until every node in {@code expected} sees exactly {@code members} members; a timeout
   * reports how many each saw last.
   */
  public void awaitMembers(List<DrillNode> expected, int members, Duration timeout) {
    Polling.until(
        timeout,
        expected + " see " + members + " members",
        () -> {
          Map<String, Integer> seen = new LinkedHashMap<>();
          for (DrillNode node : expected) {
            if (!node.process().isAlive()) {
              throw new ProcessExitedException(node.process());
            }
            seen.put(node.name(), node.probe().cluster().members());
          }
          return seen;
        },
        seen -> seen.values().stream().allMatch(n -> n == members),
        members + " members seen by every node");
  }

  /** Restores every cut path of every node started with proxied links ({@link #proxyNodeLinks}). */
  public void healAllLinks() {
    for (NodeLinks nodeLinks : links.values()) {
      nodeLinks.healZooKeeper();
      nodeLinks.healRedis();
    }
  }

  /** Kills every process (executors first, so none is left consuming); close twice is a no-op. */
  @Override
  public void close() {
    for (DrillExecutor executor : executors) {
      executor.process().close();
    }
    for (DrillNode node : nodes) {
      node.process().close();
    }
    links.values().forEach(NodeLinks::close);
    log.info("drill cluster {} closed: logs under {}", id, dir);
  }
}
