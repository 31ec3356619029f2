package dev.kairos.node.system.zookeeper;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.AppenderBase;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.coordinator.cluster.LeadershipManager;
import dev.kairos.coordinator.cluster.ZkLayout;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.EmbeddedZooKeeper;
import dev.kairos.devinfra.FreePorts;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.node.KairosNodeApplication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A node with {@code kairos.zookeeper.auth} set, against a real ZooKeeper: it joins and leads as
 * before, and the znodes it created refuse every client that does not hold its digest credentials.
 */
@RealInfra(redis = RedisMode.STANDALONE, zookeeper = ZkMode.STANDALONE)
class ZookeeperAclIT {

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String USERNAME = "kairos-it";
  private static final String PASSWORD = "pw-" + UUID.randomUUID();
  private static final String NODE = "acl-node";

  private final String root = "/kairos-acl-it-" + UUID.randomUUID();
  private final ZkLayout layout = new ZkLayout(root);
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void aNodeWithDigestAuthLeadsAndOnlyItsCredentialsReachItsZnodes(
      EmbeddedInfrastructure infra, EmbeddedZooKeeper zk) throws Exception {
    int port = FreePorts.pick();
    Map<String, String> auth = new LinkedHashMap<>();
    auth.put("kairos.zookeeper.auth.username", USERNAME);
    auth.put("kairos.zookeeper.auth.password", PASSWORD);
    LogCapture logs = new LogCapture();
    // The capture is closed last: it hears the node's shutdown too.
    try (logs;
        ConfigurableApplicationContext node = start(infra, port, auth, logs.attach());
        CuratorFramework owner = client(zk, USERNAME + ":" + PASSWORD);
        CuratorFramework anonymous = client(zk, null);
        CuratorFramework wrongPassword = client(zk, USERNAME + ":" + PASSWORD + "-wrong")) {
      LeadershipManager leadership = node.getBean(LeadershipManager.class);
      Poll.until(DEADLINE, "node " + NODE + " to lead", leadership::isLeader);
      String member = layout.member(NODE);
      Poll.until(
          DEADLINE,
          "member znode " + member + ", read with the node's credentials",
          () -> exists(owner, member));
      long term = leadership.leadingTerm();
      assertThat(term).isPositive();

      assertThat(new String(owner.getData().forPath(member), UTF_8)).contains(NODE);
      List<ACL> creatorOnly =
          List.of(
              new ACL(
                  ZooDefs.Perms.ALL,
                  new Id(
                      ZookeeperAcl.DIGEST,
                      DigestAuthenticationProvider.generateDigest(USERNAME + ":" + PASSWORD))));
      // Parents made by creatingParent(Container)sIfNeeded (the root, members, terms) get the
      // provider's ACL as much as the znodes asked for (the member, the leader, the term).
      for (String path :
          List.of(
              root, layout.members(), member, layout.leader(), layout.terms(), layout.term(term))) {
        assertThat(owner.getACL().forPath(path)).as("ACL of %s", path).isEqualTo(creatorOnly);
      }

      for (CuratorFramework stranger : List.of(anonymous, wrongPassword)) {
        String who = stranger == anonymous ? "a client without auth" : "a wrong password";
        assertNoAuth(who + " reading the member", () -> stranger.getData().forPath(member));
        assertNoAuth(who + " listing the root", () -> stranger.getChildren().forPath(root));
        assertNoAuth(
            who + " reading the leader", () -> stranger.getData().forPath(layout.leader()));
        assertNoAuth(
            who + " creating under the root",
            () -> stranger.create().forPath(root + "/intruder", new byte[0]));
        assertNoAuth(
            who + " registering a member",
            () -> stranger.create().forPath(layout.member("intruder"), new byte[0]));
        assertNoAuth(
            who + " overwriting the leader",
            () -> stranger.setData().forPath(layout.leader(), new byte[0]));
        assertNoAuth(who + " deleting the member", () -> stranger.delete().forPath(member));
        assertNoAuth(
            who + " deleting the leader", () -> stranger.delete().forPath(layout.leader()));
        assertNoAuth(
            who + " opening the root's ACL",
            () -> stranger.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(root));
      }

      assertThat(owner.checkExists().forPath(member)).as("the member survived").isNotNull();
      assertThat(owner.checkExists().forPath(root + "/intruder")).isNull();
      assertThat(leadership.leadingTerm()).as("still leading the same term").isEqualTo(term);

      JsonNode health = zookeeperHealth(port);
      assertThat(health.at("/details/authentication").asText()).isEqualTo("digest");
      assertThat(health.toString()).doesNotContain(PASSWORD);
    }
    assertThat(logs.lines).as("log lines of the node's run").isNotEmpty();
    assertThat(logs.lines).noneMatch(line -> line.contains(PASSWORD));
  }

  private static boolean exists(CuratorFramework client, String path) {
    try {
      return client.checkExists().forPath(path) != null;
    } catch (Exception e) {
      throw new IllegalStateException("cannot check " + path, e);
    }
  }

  private static void assertNoAuth(String what, ThrowingCallable call) {
    assertThatThrownBy(call).as(what).isInstanceOf(KeeperException.NoAuthException.class);
  }

  private ConfigurableApplicationContext start(
      EmbeddedInfrastructure infra,
      int port,
      Map<String, String> overrides,
      ApplicationContextInitializer<ConfigurableApplicationContext> initializer) {
    Map<String, String> properties = new LinkedHashMap<>(infra.springProperties());
    properties.put("server.port", Integer.toString(port));
    properties.put("kairos.node.name", NODE);
    properties.put("kairos.node.internal-address", "127.0.0.1:" + port);
    properties.put("kairos.zookeeper.root-path", root);
    properties.putAll(overrides);
    String[] args =
        properties.entrySet().stream()
            .map(e -> "--" + e.getKey() + "=" + e.getValue())
            .toArray(String[]::new);
    return new SpringApplicationBuilder(KairosNodeApplication.class)
        .initializers(initializer)
        .run(args);
  }

  /**
   * Every line logged while it is attached. Boot resets Logback while it prepares the environment,
   * so it is attached by a context initializer, which runs after that.
   */
  private static final class LogCapture extends AppenderBase<ILoggingEvent>
      implements AutoCloseable {

    private final Queue<String> lines = new ConcurrentLinkedQueue<>();

    ApplicationContextInitializer<ConfigurableApplicationContext> attach() {
      return context -> {
        setContext((LoggerContext) LoggerFactory.getILoggerFactory());
        setName("zookeeper-acl-it");
        start();
        rootLogger().addAppender(this);
      };
    }

    @Override
    public void close() {
      rootLogger().detachAppender(this);
      stop();
    }

    private static Logger rootLogger() {
      return ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(Logger.ROOT_LOGGER_NAME);
    }

    @Override
    protected void append(ILoggingEvent event) {
      String thrown =
          event.getThrowableProxy() == null
              ? ""
              : ThrowableProxyUtil.asString(event.getThrowableProxy());
      lines.add(event.getFormattedMessage() + thrown);
    }
  }

  /** A client of its own, authenticated as {@code credentials} ("user:password") unless null. */
  private static CuratorFramework client(EmbeddedZooKeeper zk, String credentials)
      throws InterruptedException {
    CuratorFrameworkFactory.Builder builder =
        CuratorFrameworkFactory.builder()
            .connectString(zk.connectString())
            .sessionTimeoutMs(10_000)
            .connectionTimeoutMs(5_000)
            .retryPolicy(new RetryOneTime(100));
    if (credentials != null) {
      builder.authorization(ZookeeperAcl.DIGEST, credentials.getBytes(UTF_8));
    }
    CuratorFramework client = builder.build();
    client.start();
    if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
      client.close();
      throw new IllegalStateException("no connection to " + zk);
    }
    return client;
  }

  private JsonNode zookeeperHealth(int port) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/actuator/health/zookeeper"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return json.readTree(response.body());
  }
}
