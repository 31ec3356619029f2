package dev.kairos.mq.route;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.lifecycle.Lifecycle;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates handler topics on the brokers of one RocketMQ cluster and waits until the NameServer
 * serves their route, so the first send after {@link #ensureTopic} finds every queue.
 *
 * <p>Idempotent and never shrinking: a topic that already has at least the requested queues on a
 * broker is left alone there, because lowering the queue count would strand the messages in the
 * removed queues. Thread-safe after {@link #start()}.
 */
public final class TopicAdmin implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TopicAdmin.class);
  private static final Duration POLL = Duration.ofMillis(100);

  private final DefaultMQAdminExt admin;
  private final String clusterName;
  private final Lifecycle lifecycle = new Lifecycle("TopicAdmin");

  /**
   * @param nameServerAddress {@code host:port[;host:port]}
   * @param clusterName the broker cluster to create topics on (RocketMQ's default is {@code
   *     DefaultCluster})
   */
  public TopicAdmin(String nameServerAddress, String clusterName) {
    this(nameServerAddress, clusterName, RocketMqCredentials.NONE);
  }

  /**
   * @param nameServerAddress {@code host:port[;host:port]}
   * @param clusterName the broker cluster to create topics on (RocketMQ's default is {@code
   *     DefaultCluster})
   * @param credentials the ACL user the broker requests are signed as ({@link
   *     RocketMqCredentials#NONE} without ACL); creating a topic needs its {@code Create} right
   */
  public TopicAdmin(String nameServerAddress, String clusterName, RocketMqCredentials credentials) {
    this.clusterName = Objects.requireNonNull(clusterName, "clusterName");
    this.admin =
        new DefaultMQAdminExt(
            Objects.requireNonNull(credentials, "credentials").rpcHook(),
            Duration.ofSeconds(5).toMillis());
    admin.setNamesrvAddr(Objects.requireNonNull(nameServerAddress, "nameServerAddress"));
    admin.setAdminExtGroup("kairos_admin");
    // A unique instance name: two admins in one JVM must not share one RocketMQ client instance.
    admin.setInstanceName("kairos-admin-" + System.identityHashCode(this));
  }

  public void start() {
    lifecycle.start();
    try {
      admin.start();
    } catch (Exception e) {
      throw new KairosException("cannot start the RocketMQ admin client", e);
    }
  }

  /**
   * Makes sure {@code topic} has at least {@code queuesPerBroker} read and write queues on every
   * master of the cluster and that the NameServer's route shows them, waiting at most {@code
   * timeout}.
   *
   * @return the total number of queues in the route (the slot space of the topic)
   */
  public int ensureTopic(String topic, int queuesPerBroker, Duration timeout) {
    lifecycle.requireStarted();
    if (queuesPerBroker < 1) {
      throw new IllegalArgumentException("queuesPerBroker must be >= 1 but was " + queuesPerBroker);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      Map<String, String> masters = awaitMasters(timeout, deadline);
      Map<String, Integer> existing = routeQueues(topic);
      for (Map.Entry<String, String> broker : masters.entrySet()) {
        int current = existing.getOrDefault(broker.getKey(), 0);
        if (current >= queuesPerBroker) {
          continue;
        }
        TopicConfig config = new TopicConfig(topic, queuesPerBroker, queuesPerBroker);
        config.setPerm(PermName.PERM_READ | PermName.PERM_WRITE);
        admin.createAndUpdateTopicConfig(broker.getValue(), config);
        log.info(
            "topic {} on broker {}: {} -> {} queues",
            topic,
            broker.getKey(),
            current,
            queuesPerBroker);
      }
      return awaitRoute(topic, masters.keySet(), queuesPerBroker, timeout, deadline);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted while creating topic " + topic, e);
    } catch (KairosException e) {
      throw e;
    } catch (Exception e) {
      throw new KairosException("cannot create topic " + topic + ": " + e.getMessage(), e);
    }
  }

  /**
   * The cluster's masters, waiting until the deadline for the NameServer to list them: a restarted
   * NameServer knows no broker until each re-registers, at its own period (30 s by default), and an
   * executor starting in that gap must wait for it, not fail.
   */
  private Map<String, String> awaitMasters(Duration timeout, long deadline)
      throws InterruptedException {
    boolean logged = false;
    while (true) {
      try {
        return masters();
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        if (System.nanoTime() - deadline >= 0) {
          throw new KairosException(
              "no master of RocketMQ cluster " + clusterName + " after " + timeout + ": " + e, e);
        }
        if (!logged) {
          log.warn(
              "waiting up to {} for the NameServer to list a master of cluster {} ({})",
              timeout,
              clusterName,
              e.getMessage());
          logged = true;
        }
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  /** Broker name → master address of the configured cluster. */
  private Map<String, String> masters() throws Exception {
    ClusterInfo info = admin.examineBrokerClusterInfo();
    Set<String> names = info.getClusterAddrTable().get(clusterName);
    if (names == null || names.isEmpty()) {
      throw new KairosException(
          "RocketMQ cluster "
              + clusterName
              + " has no brokers; known clusters: "
              + info.getClusterAddrTable().keySet());
    }
    Map<String, String> masters = new TreeMap<>();
    for (String name : names) {
      BrokerData data = info.getBrokerAddrTable().get(name);
      String master = data == null ? null : data.getBrokerAddrs().get(0L);
      if (master != null) {
        masters.put(name, master);
      }
    }
    if (masters.isEmpty()) {
      throw new KairosException("RocketMQ cluster " + clusterName + " has no live master");
    }
    return masters;
  }

  /** Broker name → queue count in the NameServer's route; empty when the topic is unknown. */
  private Map<String, Integer> routeQueues(String topic) throws InterruptedException {
    Map<String, Integer> queues = new TreeMap<>();
    TopicRouteData route;
    try {
      route = admin.examineTopicRouteInfo(topic);
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      return queues; // TOPIC_NOT_EXIST, or a NameServer that has not heard of it yet
    }
    for (QueueData data : route.getQueueDatas()) {
      queues.put(data.getBrokerName(), Math.min(data.getReadQueueNums(), data.getWriteQueueNums()));
    }
    return queues;
  }

  private int awaitRoute(
      String topic, Set<String> brokers, int queuesPerBroker, Duration timeout, long deadline)
      throws InterruptedException {
    while (true) {
      Map<String, Integer> seen = routeQueues(topic);
      boolean complete = brokers.stream().allMatch(b -> seen.getOrDefault(b, 0) >= queuesPerBroker);
      if (complete) {
        return seen.values().stream().mapToInt(Integer::intValue).sum();
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new KairosException(
            "the NameServer does not serve topic "
                + topic
                + " with "
                + queuesPerBroker
                + " queues on "
                + brokers
                + " after "
                + timeout
                + "; route: "
                + seen);
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  @Override
  public void close() {
    if (lifecycle.close()) {
      admin.shutdown();
    }
  }
}
