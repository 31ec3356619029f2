package dev.kairos.cluster.cli;

import dev.kairos.cluster.process.ChildJvm;
import dev.kairos.devinfra.Poll;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

/**
 * {@code up}: starts the infrastructure JVM, then {@code node-1..N} from the node's exec jar and
 * {@code exec-1..M} from the sample executor's exec jar, each a separate detached process with its
 * log and pid file in the cluster folder, and returns once every node agrees on one leader and
 * every executor holds a slot. A random admin token (its SHA-256 configured on the nodes) and
 * cluster secret (passed in the environment, never as an argument) are made per cluster. If any
 * step fails, what was started is stopped again.
 */
final class LocalClusterUp {

  static final Duration INFRA_DEADLINE = Duration.ofSeconds(180);
  static final Duration NODES_DEADLINE = Duration.ofSeconds(240);
  static final Duration EXECUTORS_DEADLINE = Duration.ofSeconds(180);

  private final CliOptions options;
  private final ClusterLayout layout;
  private final PrintStream out;

  LocalClusterUp(CliOptions options, PrintStream out) {
    this.options = options;
    this.layout = new ClusterLayout(options.dir());
    this.out = out;
  }

  void run() {
    List<PidFile> running =
        layout.processes().stream().filter(p -> p.liveHandle().isPresent()).toList();
    if (!running.isEmpty()) {
      throw new IllegalStateException(
          "a local cluster is already up in "
              + layout.dir()
              + ": run down first ("
              + running
              + ")");
    }
    requireFile(options.nodeJar(), "the node's exec jar");
    if (options.executors() > 0) {
      requireFile(options.executorJar(), "the sample executor's exec jar");
    }
    for (int k = 0; k < options.nodes(); k++) {
      requireFreePort(options.basePort() + k);
    }
    layout.reset();
    try {
      start();
    } catch (RuntimeException e) {
      out.println("up failed, stopping what was started: " + e.getMessage());
      new LocalClusterDown(layout, out).run();
      throw e;
    }
  }

  private void start() {
    String adminToken = randomHex(24);
    String secret = randomHex(24);
    writeOwnerOnly(layout.adminToken(), adminToken + "\n");
    ChildJvm infra =
        new ChildJvm(
                "infra",
                InfraMain.class.getName(),
                jvmOptions("infra", infraJvmOptions()),
                List.of(layout.infraWorkDir().toString(), layout.infraProperties().toString()),
                layout.log("infra"))
            .detached();
    started(infra, ProcessRole.INFRA, 0);
    Poll.until(
        INFRA_DEADLINE,
        "the infrastructure (Redis, ZooKeeper, RocketMQ, PostgreSQL) to be up; see "
            + infra.logFile(),
        () -> alive(infra) && Files.exists(layout.infraProperties()));
    Map<String, String> infraProperties = readProperties(layout.infraProperties());
    out.println("infrastructure up: " + infraProperties.keySet());

    NodeHttp http = new NodeHttp(adminToken);
    List<Integer> ports = new ArrayList<>();
    List<ChildJvm> nodes = new ArrayList<>();
    for (int k = 1; k <= options.nodes(); k++) {
      int port = options.basePort() + k - 1;
      ChildJvm node = startNode("node-" + k, port, infraProperties, adminToken, secret);
      ports.add(port);
      nodes.add(node);
    }
    Poll.until(
        NODES_DEADLINE,
        options.nodes() + " nodes agreeing on one leader; see the node logs in " + layout.dir(),
        () -> nodes.stream().allMatch(this::alive) && agreedLeader(http, ports));

    String firstLeader = http.cluster(ports.get(0)).leader();
    List<String> instances = new ArrayList<>();
    List<ChildJvm> executors = new ArrayList<>();
    for (int k = 1; k <= options.executors(); k++) {
      String name = "exec-" + k;
      String instanceId = name + "-" + UUID.randomUUID().toString().substring(0, 8);
      executors.add(startExecutor(name, instanceId, infraProperties));
      instances.add(instanceId);
    }
    Poll.until(
        EXECUTORS_DEADLINE,
        options.executors() + " executors holding a slot of app " + options.app(),
        () ->
            executors.stream().allMatch(this::alive)
                && http.executorInstances(ports.get(0), options.app()).containsAll(instances));
    out.printf(
        "kairos local cluster up: %d nodes (leader %s) on http://127.0.0.1:%d..%d, %d executors"
            + " of app '%s'%n  admin token: %s (export TOKEN=$(cat %s))%n  logs and pid files:"
            + " %s%n",
        options.nodes(),
        firstLeader,
        options.basePort(),
        options.basePort() + options.nodes() - 1,
        options.executors(),
        options.app(),
        layout.adminToken(),
        layout.adminToken(),
        layout.dir());
  }

  private ChildJvm startNode(
      String name, int port, Map<String, String> infra, String adminToken, String secret) {
    List<String> args = new ArrayList<>();
    infra.forEach((k, v) -> args.add("--" + k + "=" + v));
    args.add("--server.port=" + port);
    args.add("--kairos.node.name=" + name);
    args.add("--kairos.node.internal-address=127.0.0.1:" + port);
    args.add("--kairos.api.tokens[0].name=local-cluster");
    args.add("--kairos.api.tokens[0].sha256=" + sha256Hex(adminToken));
    args.add("--kairos.api.tokens[0].role=ADMIN");
    ChildJvm node =
        ChildJvm.ofJar(
                name,
                options.nodeJar(),
                jvmOptions(name, options.jvmOptions()),
                args,
                layout.log(name))
            // Relaxed binding: KAIROS_CLUSTER_SECRET is kairos.cluster.secret, out of ps.
            .withEnvironment(Map.of("KAIROS_CLUSTER_SECRET", secret))
            .detached();
    started(node, ProcessRole.NODE, port);
    return node;
  }

  private ChildJvm startExecutor(String name, String instanceId, Map<String, String> infra) {
    List<String> args = new ArrayList<>();
    infra.entrySet().stream()
        .filter(e -> !e.getKey().startsWith("spring.datasource"))
        .forEach(e -> args.add("--" + e.getKey() + "=" + e.getValue()));
    args.add("--kairos.executor.app=" + options.app());
    args.add("--kairos.executor.instance-id=" + instanceId);
    args.add("--kairos.executor.host=127.0.0.1");
    ChildJvm executor =
        ChildJvm.ofJar(
                name,
                options.executorJar(),
                jvmOptions(name, options.jvmOptions()),
                args,
                layout.log(name))
            .detached();
    started(executor, ProcessRole.EXECUTOR, 0);
    return executor;
  }

  private void started(ChildJvm jvm, ProcessRole role, int port) {
    jvm.start();
    ProcessHandle handle =
        ProcessHandle.of(jvm.pid())
            .orElseThrow(() -> new IllegalStateException(jvm.name() + " exited at once"));
    PidFile.of(jvm.name(), role, handle, port).write(layout.pidFile(jvm.name()));
    out.printf("started %-8s pid %d, log %s%n", jvm.name(), jvm.pid(), jvm.logFile());
  }

  private boolean alive(ChildJvm jvm) {
    if (!jvm.isAlive()) {
      throw new IllegalStateException(jvm.name() + " exited; see " + jvm.logFile());
    }
    return true;
  }

  private static boolean agreedLeader(NodeHttp http, List<Integer> ports) {
    String leader = null;
    for (int port : ports) {
      NodeHttp.ClusterView view = http.cluster(port);
      if (view.leader().isEmpty() || view.members() != ports.size()) {
        return false;
      }
      if (leader != null && !leader.equals(view.leader())) {
        return false;
      }
      leader = view.leader();
    }
    return true;
  }

  private List<String> jvmOptions(String name, List<String> base) {
    Path tmp = layout.tmp(name);
    try {
      Files.createDirectories(tmp); // Tomcat and RocketMQ write there; the JVM never creates it
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + tmp, e);
    }
    List<String> result = new ArrayList<>(base);
    result.add("-Djava.io.tmpdir=" + tmp);
    // RocketMQ clients and the broker write ~/logs/rocketmqlogs: keep them in the folder.
    result.add("-Duser.home=" + tmp);
    result.add("-Dkairos.local-cluster.process=" + name); // visible in ps, for humans
    return result;
  }

  /** The infrastructure JVM logs as the CLI was told to (local-cluster.sh's logback files). */
  private static List<String> infraJvmOptions() {
    List<String> result = new ArrayList<>(List.of("-Xmx512m", "-XX:+UseSerialGC"));
    for (String property : List.of("logback.configurationFile", "rmq.logback.configurationFile")) {
      String value = System.getProperty(property);
      if (value != null) {
        result.add("-D" + property + "=" + value);
      }
    }
    return result;
  }

  private static void requireFile(Path file, String what) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException(
          what + " " + file.toAbsolutePath() + " is missing: run ./mvnw -B -q -DskipTests install");
    }
  }

  private static void requireFreePort(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
    } catch (IOException e) {
      throw new IllegalStateException("port " + port + " is in use: choose another --base-port", e);
    }
  }

  private static Map<String, String> readProperties(Path file) {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    Map<String, String> result = new LinkedHashMap<>();
    p.stringPropertyNames().stream().sorted().forEach(k -> result.put(k, p.getProperty(k)));
    return result;
  }

  private static void writeOwnerOnly(Path file, String text) {
    try {
      Files.deleteIfExists(file);
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private static String randomHex(int bytes) {
    byte[] b = new byte[bytes];
    new SecureRandom().nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  static String sha256Hex(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    }
  }
}
