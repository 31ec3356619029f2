package dev.kairos.devinfra;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.auth.authentication.provider.DefaultAuthenticationProvider;
import org.apache.rocketmq.auth.authentication.provider.LocalAuthenticationMetadataProvider;
import org.apache.rocketmq.auth.authorization.provider.DefaultAuthorizationProvider;
import org.apache.rocketmq.auth.authorization.provider.LocalAuthorizationMetadataProvider;
import org.apache.rocketmq.auth.config.AuthConfig;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.common.namesrv.NamesrvConfig;
import org.apache.rocketmq.namesrv.NamesrvController;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real RocketMQ 5.3 NameServer and one Broker (name and cluster {@code kairos}) running in this
 * JVM on free loopback ports. Topics are not auto-created: create them with {@link
 * #createTopic(String, int)}.
 *
 * <p>RocketMQ keeps process-wide state (the broker config path, client instances) and its shutdown
 * takes seconds, so run one per test JVM — {@link RealInfraExtension} shares one.
 *
 * <p>Layout under the given directory: {@code namesrv/} (kv config), {@code store/} (commit log,
 * consume queues, index, {@code config/} with topics and consumer offsets).
 *
 * <p>{@link #startWithAcl} starts one whose broker enforces RocketMQ 5.3's ACL 2.0 (authentication
 * and authorization, users and ACLs in RocksDB under {@code store/config}); the NameServer of
 * RocketMQ 5.3 enforces nothing. {@link RealInfra} never starts that kind: a test starts and closes
 * its own.
 */
public final class EmbeddedRocketMq implements AutoCloseable {

  /** Name of the broker and of its cluster; producers that create topics target this cluster. */
  public static final String CLUSTER_NAME = RocketMqBroker.NAME;

  private static final Logger log = LoggerFactory.getLogger(EmbeddedRocketMq.class);
  private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration ROUTE_POLL_STEP = Duration.ofMillis(500);
  private static final Duration NETTY_THREADS_TIMEOUT = Duration.ofSeconds(20);

  /**
   * The broker's client threads end within Netty's quiet period (2 s) of its close; a client of the
   * test's own that is still open would keep its threads, so this wait is short.
   */
  private static final Duration CLIENT_THREADS_TIMEOUT = Duration.ofSeconds(5);

  /**
   * Embedded brokers running in this JVM: the JVM-wide wait for lingering RocketMQ threads at close
   * is for the last one only, since the threads cannot be told apart by broker.
   */
  private static final AtomicInteger EMBEDDED_RUNNING = new AtomicInteger();

  private final Lifecycle lifecycle = new Lifecycle("rocketmq");
  private final Path storeDir;
  private final int brokerPort;
  private final NamesrvConfig namesrvConfig;
  private final NettyServerConfig namesrvNetty;
  private NamesrvController nameServer;
  private final String nameServerAddress;
  private final Map<String, Integer> topics = new ConcurrentHashMap<>();
  private BrokerController broker;
  private DefaultMQAdminExt admin;

  /** The ACL of an ACL-enabled broker ({@link #startWithAcl}), else null. */
  private AuthConfig auth;

  private SessionCredentials superUser;

  /** Both set for servers started elsewhere ({@link InfraBackend#CONTAINERS}), else null. */
  private ServerControl attachedNameServer;

  private ServerControl attachedBroker;

  private EmbeddedRocketMq(
      Path storeDir, int brokerPort, NamesrvConfig namesrvConfig, NettyServerConfig namesrvNetty) {
    this.storeDir = storeDir;
    this.brokerPort = brokerPort;
    this.namesrvConfig = namesrvConfig;
    this.namesrvNetty = namesrvNetty;
    this.nameServer = new NamesrvController(namesrvConfig, namesrvNetty);
    this.nameServerAddress = "127.0.0.1:" + namesrvNetty.getListenPort();
  }

  private EmbeddedRocketMq(String nameServerAddress, int brokerPort) {
    this.storeDir = null;
    this.brokerPort = brokerPort;
    this.namesrvConfig = null;
    this.namesrvNetty = null;
    this.nameServerAddress = nameServerAddress;
  }

  /**
   * A NameServer on {@code 127.0.0.1:<nameServerPort>} and a broker of cluster {@value
   * RocketMqBroker#NAME} registered with it, advertising {@code 127.0.0.1:<brokerPort>}, started
   * elsewhere ({@link InfraBackend#CONTAINERS}); the controls stop and start them. Returns once the
   * broker is registered.
   */
  static EmbeddedRocketMq attached(
      ServerControl nameServer, int nameServerPort, ServerControl broker, int brokerPort) {
    EmbeddedRocketMq mq = new EmbeddedRocketMq("127.0.0.1:" + nameServerPort, brokerPort);
    mq.attachedNameServer = nameServer;
    mq.attachedBroker = broker;
    mq.lifecycle.markStarted();
    try {
      mq.admin = new DefaultMQAdminExt();
      mq.admin.setNamesrvAddr(mq.nameServerAddress);
      mq.admin.setInstanceName("kairos-devinfra-admin-" + brokerPort);
      mq.admin.start();
      mq.awaitBrokerRegistration(true);
    } catch (Exception e) {
      mq.close();
      throw new IllegalStateException("rocketmq containers did not come up: " + e, e);
    }
    log.info(
        "rocketmq attached: name server {}, broker {}", mq.nameServerAddress, mq.brokerAddress());
    return mq;
  }

  /** Starts the NameServer and the Broker under {@code dir}; returns once the broker registered. */
  public static EmbeddedRocketMq start(Path dir) {
    return start(dir, null, null);
  }

  /**
   * Starts the NameServer and a Broker under {@code dir} whose every request must be signed by a
   * user (authentication) that an ACL allows the request (authorization): RocketMQ 5.3's ACL 2.0.
   * {@code superUser} is created as the broker's initial super user (it may do anything); this
   * instance's own admin signs as it, so {@link #createTopic} keeps working. Make further users
   * with {@link #createUser} and {@link #createAcl}.
   */
  public static EmbeddedRocketMq startWithAcl(Path dir, String superUser, String superPassword) {
    for (String part : List.of(superUser, superPassword)) {
      if (!part.matches("[A-Za-z0-9_-]+")) {
        throw new IllegalArgumentException("super user and password must be [A-Za-z0-9_-]+");
      }
    }
    AuthConfig auth = new AuthConfig();
    auth.setAuthenticationEnabled(true);
    auth.setAuthenticationProvider(DefaultAuthenticationProvider.class.getName());
    auth.setAuthenticationMetadataProvider(LocalAuthenticationMetadataProvider.class.getName());
    auth.setAuthorizationEnabled(true);
    auth.setAuthorizationProvider(DefaultAuthorizationProvider.class.getName());
    auth.setAuthorizationMetadataProvider(LocalAuthorizationMetadataProvider.class.getName());
    auth.setInitAuthenticationUser(
        "{\"username\":\"" + superUser + "\",\"password\":\"" + superPassword + "\"}");
    auth.setInnerClientAuthenticationCredentials(
        "{\"accessKey\":\"" + superUser + "\",\"secretKey\":\"" + superPassword + "\"}");
    return start(dir, auth, new SessionCredentials(superUser, superPassword));
  }

  private static EmbeddedRocketMq start(Path dir, AuthConfig auth, SessionCredentials superUser) {
    long began = System.nanoTime();
    EmbeddedRocketMq mq;
    try {
      Path namesrvDir = Files.createDirectories(dir.resolve("namesrv"));
      Path storeDir = Files.createDirectories(dir.resolve("store"));
      NamesrvConfig namesrvConfig = new NamesrvConfig();
      namesrvConfig.setKvConfigPath(namesrvDir.resolve("kvConfig.json").toString());
      namesrvConfig.setConfigStorePath(namesrvDir.resolve("namesrv.properties").toString());
      NettyServerConfig namesrvNetty = new NettyServerConfig();
      namesrvNetty.setBindAddress("127.0.0.1");
      namesrvNetty.setListenPort(FreePorts.pick());
      int brokerPort =
          FreePorts.pickBlock(0, RocketMqBroker.FAST_CHANNEL_OFFSET, RocketMqBroker.HA_OFFSET);
      mq = new EmbeddedRocketMq(storeDir, brokerPort, namesrvConfig, namesrvNetty);
      if (auth != null) {
        mq.auth = auth;
        mq.superUser = superUser;
      }
    } catch (Exception e) {
      throw new IllegalStateException("rocketmq failed to prepare under " + dir + ": " + e, e);
    }
    mq.lifecycle.markStarted();
    EMBEDDED_RUNNING.incrementAndGet();
    try {
      if (!mq.nameServer.initialize()) {
        throw new IllegalStateException("NameServer did not initialize");
      }
      mq.nameServer.start();
      long namesrvMillis = Millis.since(began);
      mq.launchBroker();
      mq.admin =
          mq.superUser == null
              ? new DefaultMQAdminExt()
              : new DefaultMQAdminExt(new AclClientRPCHook(mq.superUser));
      mq.admin.setNamesrvAddr(mq.nameServerAddress);
      mq.admin.setInstanceName("kairos-devinfra-admin-" + mq.brokerPort);
      mq.admin.start();
      mq.awaitBrokerRegistration(true);
      log.info(
          "rocketmq started: name server {} (in {} ms), broker {}{} — total {} ms",
          mq.nameServerAddress,
          namesrvMillis,
          mq.brokerAddress(),
          auth == null ? "" : " with ACL 2.0",
          Millis.since(began));
      return mq;
    } catch (Exception e) {
      mq.close();
      throw new IllegalStateException("rocketmq failed to start under " + dir + ": " + e, e);
    }
  }

  /** {@code 127.0.0.1:<port>} of the NameServer: what producers and consumers are given. */
  public String nameServerAddress() {
    return nameServerAddress;
  }

  /** Whether the broker enforces ACL ({@link #startWithAcl}). */
  public boolean isAclEnabled() {
    return auth != null;
  }

  /**
   * Creates a normal user (an ACL 2.0 subject {@code User:<username>}) on the broker, signed as the
   * super user; the user may do nothing until {@link #createAcl} allows it.
   */
  public synchronized void createUser(String username, String password) {
    requireAcl();
    try {
      admin.createUser(brokerAddress(), username, password, "Normal");
    } catch (Exception e) {
      throw new IllegalStateException("cannot create user " + username + ": " + e, e);
    }
  }

  /**
   * Allows {@code username} the {@code actions} (e.g. {@code Pub}, {@code Sub}, {@code Create}) on
   * each of the {@code resources} (e.g. {@code Topic:kairos_*}, {@code Group:g}) from any address,
   * as {@code mqadmin createAcl -s User:<username> -r ... -a ... -d Allow} does. Another call for
   * the same resource replaces its actions.
   */
  public synchronized void createAcl(
      String username, List<String> resources, List<String> actions) {
    requireAcl();
    try {
      admin.createAcl(brokerAddress(), "User:" + username, resources, actions, null, "Allow");
    } catch (Exception e) {
      throw new IllegalStateException(
          "cannot allow " + username + " " + actions + " on " + resources + ": " + e, e);
    }
  }

  private void requireAcl() {
    lifecycle.requireStarted();
    if (auth == null) {
      throw new IllegalStateException("the broker on " + brokerAddress() + " enforces no ACL");
    }
  }

  /** {@code 127.0.0.1:<port>} of the broker. */
  public String brokerAddress() {
    return "127.0.0.1:" + brokerPort;
  }

  /**
   * Creates (or updates) {@code topic} with {@code queues} read and write queues and returns once
   * the NameServer serves its route with that many queues. Idempotent.
   */
  public synchronized void createTopic(String topic, int queues) {
    lifecycle.requireStarted();
    if (queues < 1) {
      throw new IllegalArgumentException("a topic needs at least one queue, got " + queues);
    }
    if (!isBrokerRunning()) {
      throw new IllegalStateException("cannot create topic " + topic + ": the broker is stopped");
    }
    try {
      TopicConfig config =
          new TopicConfig(topic, queues, queues, PermName.PERM_READ | PermName.PERM_WRITE);
      admin.createAndUpdateTopicConfig(brokerAddress(), config);
    } catch (Exception e) {
      throw new IllegalStateException("cannot create topic " + topic + ": " + e, e);
    }
    topics.put(topic, queues);
    if (broker != null) {
      // Without this the NameServer learns the route at the next periodic registration (~30 s).
      // (A broker in a container registers the changed topic itself, as any remote broker does.)
      broker.registerBrokerAll(true, false, true);
    }
    awaitRoute(topic, queues);
  }

  /**
   * Stops the broker and starts a new one on the same port and store; returns once every topic
   * created here is routed again. Messages and consumer offsets survive.
   */
  public synchronized void restartBroker() {
    long began = System.nanoTime();
    stopBroker();
    startBroker();
    log.info("rocketmq broker restarted on {} in {} ms", brokerAddress(), Millis.since(began));
  }

  /**
   * Shuts the broker down for real: the store is flushed, the broker unregisters from the
   * NameServer and its ports close, so sends fail until {@link #startBroker()}. The NameServer
   * keeps running. Stopping a stopped broker does nothing.
   */
  public synchronized void stopBroker() {
    lifecycle.requireStarted();
    if (attachedBroker != null) {
      if (attachedBroker.isRunning()) {
        attachedBroker.stop();
        awaitBrokerRegistration(false);
        log.info("rocketmq broker on {} stopped", brokerAddress());
      }
      return;
    }
    if (broker != null) {
      broker.shutdown();
      broker = null;
      // The NameServer processes unregistrations in batches. Wait for it: a new broker's
      // registration must not be undone by the old broker's late unregistration.
      awaitBrokerRegistration(false);
      log.info("rocketmq broker on {} stopped", brokerAddress());
    }
  }

  /**
   * Starts the stopped broker on the same port and store; returns once every topic created here is
   * routed again.
   */
  public synchronized void startBroker() {
    lifecycle.requireStarted();
    if (isBrokerRunning()) {
      throw new IllegalStateException("broker on " + brokerAddress() + " is already running");
    }
    try {
      if (attachedBroker != null) {
        attachedBroker.start();
      } else {
        launchBroker();
      }
    } catch (Exception e) {
      throw new IllegalStateException("broker did not start on " + brokerAddress() + ": " + e, e);
    }
    topics.forEach(this::awaitRoute);
  }

  /**
   * Shuts the NameServer down: its port closes and its route table is gone. Clients keep the routes
   * they cached; the broker keeps running and re-registers at its own period once the NameServer is
   * back. Stopping a stopped NameServer does nothing.
   */
  public synchronized void stopNameServer() {
    lifecycle.requireStarted();
    if (attachedNameServer != null) {
      attachedNameServer.stop();
      log.info("rocketmq name server on {} stopped", nameServerAddress);
      return;
    }
    if (nameServer != null) {
      nameServer.shutdown();
      nameServer = null;
      log.info("rocketmq name server on {} stopped", nameServerAddress);
    }
  }

  /**
   * Starts a new NameServer on the same port with an empty route table, as a restarted process
   * would be; the broker's periodic registration fills it, nothing here forces it.
   */
  public synchronized void startNameServer() {
    lifecycle.requireStarted();
    if (attachedNameServer != null) {
      attachedNameServer.start();
      log.info("rocketmq name server restarted on {}", nameServerAddress);
      return;
    }
    if (nameServer != null) {
      throw new IllegalStateException("name server on " + nameServerAddress + " is running");
    }
    NamesrvController next = new NamesrvController(namesrvConfig, namesrvNetty);
    try {
      if (!next.initialize()) {
        throw new IllegalStateException("NameServer did not initialize");
      }
      next.start();
    } catch (Exception e) {
      next.shutdown();
      throw new IllegalStateException(
          "name server did not start on " + nameServerAddress + ": " + e, e);
    }
    nameServer = next;
    log.info("rocketmq name server restarted on {}", nameServerAddress);
  }

  /**
   * True while the broker runs (false between {@link #stopBroker()} and {@link #startBroker()}).
   */
  public synchronized boolean isBrokerRunning() {
    return attachedBroker != null ? attachedBroker.isRunning() : broker != null;
  }

  @Override
  public synchronized void close() {
    if (!lifecycle.markClosed()) {
      return;
    }
    long began = System.nanoTime();
    if (admin != null) {
      admin.shutdown();
    }
    if (attachedBroker != null) {
      attachedBroker.close();
      attachedNameServer.close();
      log.info("rocketmq containers closed in {} ms", Millis.since(began));
      return;
    }
    // RocketMQ's own shutdown waits seconds per part (each remoting server's event thread polls
    // every 3 s; the store sleeps 3 s), one after the other. Once the broker has unregistered from
    // the NameServer, nothing of the broker's remaining shutdown needs it: the NameServer closes
    // alongside those steps instead of after them.
    CompletableFuture<Void> unregistered = new CompletableFuture<>();
    Thread brokerCloser = null;
    if (broker != null) {
      BrokerController closing = broker;
      closing.setShutdownHook(b -> unregistered.complete(null)); // runs after unregisterBrokerAll
      brokerCloser =
          closer(
              "broker",
              () -> {
                try {
                  closing.shutdown();
                } finally {
                  unregistered.complete(null);
                }
              });
    } else {
      unregistered.complete(null);
    }
    awaitQuietly(unregistered, NETTY_THREADS_TIMEOUT);
    if (nameServer != null) {
      nameServer.shutdown();
    }
    join(brokerCloser);
    if (EMBEDDED_RUNNING.decrementAndGet() > 0) {
      // Another embedded broker of this JVM still runs its own threads of the same names.
      log.info("rocketmq closed in {} ms", Millis.since(began));
      return;
    }
    // The remoting servers' Netty executors end after close returns (a graceful quiet period).
    LingeringThreads.awaitGone(
        LingeringThreads.ROCKETMQ_SERVERS, NETTY_THREADS_TIMEOUT, "RocketMQ server Netty");
    LingeringThreads.awaitGone(
        LingeringThreads.ROCKETMQ_CLIENTS, CLIENT_THREADS_TIMEOUT, "RocketMQ client Netty");
    log.info("rocketmq closed in {} ms", Millis.since(began));
  }

  private static Thread closer(String part, Runnable close) {
    Thread t = new Thread(close, "kairos-devinfra-rocketmq-close-" + part);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static void awaitQuietly(CompletableFuture<Void> event, Duration timeout) {
    try {
      event.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      log.warn("the broker did not unregister within {}; closing the name server anyway", timeout);
    }
  }

  /** Waits for a closing thread; bounded, since a close must never hang the test JVM. */
  private static void join(Thread closer) {
    if (closer == null) {
      return;
    }
    try {
      closer.join(NETTY_THREADS_TIMEOUT.toMillis() * 3);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (closer.isAlive()) {
      log.warn(
          "{} still running after {}", closer.getName(), NETTY_THREADS_TIMEOUT.multipliedBy(3));
    }
  }

  @Override
  public String toString() {
    return "EmbeddedRocketMq[nameServer=" + nameServerAddress + ", broker=" + brokerAddress() + "]";
  }

  private void launchBroker() throws Exception {
    BrokerController created =
        RocketMqBroker.create(
            storeDir, brokerPort, nameServerAddress, auth == null ? null : auth.clone());
    if (!created.initialize()) {
      created.shutdown();
      throw new IllegalStateException("broker did not initialize (store " + storeDir + ")");
    }
    created.start();
    // The broker's own first registration is a scheduled task (~10 s after start); until then the
    // NameServer routes none of its topics. Register now.
    created.registerBrokerAll(true, false, true);
    broker = created;
  }

  private void awaitBrokerRegistration(boolean registered) {
    Poll.until(
        ROUTE_TIMEOUT,
        "broker "
            + brokerAddress()
            + (registered ? " to register with" : " to unregister from")
            + " name server "
            + nameServerAddress,
        () -> {
          try {
            boolean listed =
                admin
                    .examineBrokerClusterInfo()
                    .getBrokerAddrTable()
                    .containsKey(RocketMqBroker.NAME);
            return listed == registered;
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  private void awaitRoute(String topic, int queues) {
    // Every miss makes the admin client log a warning: poll gently. After a broker restart the
    // NameServer serves routes again only ~10 s later, when the broker's scheduled registration
    // runs, even though it registered (and we waited for its old registration to go) right away.
    Poll.until(
        ROUTE_TIMEOUT,
        ROUTE_POLL_STEP,
        "name server "
            + nameServerAddress
            + " to route topic "
            + topic
            + " with "
            + queues
            + " queues",
        () -> {
          TopicRouteData route;
          try {
            route = admin.examineTopicRouteInfo(topic);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          return route.getBrokerDatas().stream().anyMatch(b -> !b.getBrokerAddrs().isEmpty())
              && route.getQueueDatas().stream()
                      .mapToInt(QueueData::getWriteQueueNums)
                      .filter(n -> n == queues)
                      .count()
                  == 1;
        });
  }
}
