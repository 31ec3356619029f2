package dev.kairos.devinfra;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/**
 * The containers backend ({@code -Dkairos.infra=containers}): Redis, ZooKeeper, RocketMQ
 * (NameServer + broker) and PostgreSQL as Docker containers of {@link ContainerImages}, each server
 * listening on a free port bound to the same host port (so restarts keep the address and the broker
 * can advertise {@code 127.0.0.1:<port>} to clients on the host). Redis Cluster and the ZooKeeper
 * ensemble are not provided yet: a class asking for them is skipped with that reason ({@link
 * #unsupported}).
 *
 * <p>Not run on the build machines (no Docker engine there); written against Testcontainers' API.
 */
final class ContainerStarter implements ComponentStarter {

  private final Network network = Network.newNetwork();

  /** Why {@code request} cannot run on containers, or empty. */
  static Optional<String> unsupported(InfraRequest request) {
    List<String> missing = new ArrayList<>();
    if (request.redis() == RedisMode.CLUSTER) {
      missing.add("a Redis Cluster");
    }
    if (request.zookeeper() == ZkMode.ENSEMBLE) {
      missing.add("a ZooKeeper ensemble");
    }
    return missing.isEmpty()
        ? Optional.empty()
        : Optional.of(
            "the containers backend does not provide "
                + String.join(" or ", missing)
                + " yet (standalone Redis, standalone ZooKeeper, RocketMQ and PostgreSQL only)");
  }

  @Override
  public EmbeddedRedis redis(Path dir) {
    int port = FreePorts.pick();
    GenericContainer<?> redis =
        container(ContainerImages.REDIS, port)
            .withCommand(
                "redis-server",
                "--port",
                Integer.toString(port),
                "--appendonly",
                "yes",
                "--appendfsync",
                "everysec",
                "--rdbcompression",
                "no",
                "--protected-mode",
                "no")
            .waitingFor(Wait.forLogMessage(".*Ready to accept connections.*", 1));
    return EmbeddedRedis.attached(new ContainerServer("redis", redis, port).create(), port);
  }

  @Override
  public EmbeddedZooKeeper zookeeper(Path dir) {
    int port = FreePorts.pick();
    GenericContainer<?> zk =
        container(ContainerImages.ZOOKEEPER, port)
            .withEnv("ZOO_PORT", Integer.toString(port))
            // As the embedded server: sessions of 1 s to 60 s, four-letter words for the drills.
            .withEnv("ZOO_TICK_TIME", "500")
            .withEnv("ZOO_CFG_EXTRA", "minSessionTimeout=1000 maxSessionTimeout=60000")
            .withEnv("ZOO_4LW_COMMANDS_WHITELIST", "*")
            .waitingFor(Wait.forLogMessage(".*binding to port.*", 1));
    return EmbeddedZooKeeper.attached(new ContainerServer("zookeeper", zk, port).create(), port);
  }

  @Override
  public EmbeddedRocketMq rocketMq(Path dir) {
    int namesrvPort = FreePorts.pick();
    GenericContainer<?> namesrv =
        new GenericContainer<>(DockerImageName.parse(ContainerImages.ROCKETMQ))
            .withNetwork(network)
            .withNetworkAliases("namesrv")
            .withEnv("JAVA_OPT_EXT", "-Xms256m -Xmx256m -Xmn128m")
            .withCommand("sh", "mqnamesrv")
            .waitingFor(Wait.forLogMessage(".*boot success.*", 1));
    namesrv.setPortBindings(List.of(namesrvPort + ":9876"));
    ContainerServer nameServer = new ContainerServer("rocketmq-namesrv", namesrv, namesrvPort);
    nameServer.create();

    int brokerPort =
        FreePorts.pickBlock(0, RocketMqBroker.FAST_CHANNEL_OFFSET, RocketMqBroker.HA_OFFSET);
    String conf =
        String.join(
            "\n",
            "brokerClusterName=" + RocketMqBroker.NAME,
            "brokerName=" + RocketMqBroker.NAME,
            "brokerId=0",
            "brokerIP1=127.0.0.1",
            "listenPort=" + brokerPort,
            "haListenPort=" + (brokerPort + RocketMqBroker.HA_OFFSET),
            "autoCreateTopicEnable=false",
            "autoCreateSubscriptionGroup=true",
            "traceTopicEnable=false",
            "waitTimeMillsInSendQueue=" + RocketMqBroker.SEND_QUEUE_WAIT_MS,
            "flushDiskType=ASYNC_FLUSH",
            "timerWheelEnable=false",
            "diskMaxUsedSpaceRatio=98",
            "");
    GenericContainer<?> broker =
        new GenericContainer<>(DockerImageName.parse(ContainerImages.ROCKETMQ))
            .withNetwork(network)
            .withEnv("JAVA_OPT_EXT", "-Xms512m -Xmx512m -Xmn256m")
            .withCopyToContainer(Transferable.of(conf), "/home/rocketmq/broker.conf")
            .withCommand("sh", "mqbroker", "-n", "namesrv:9876", "-c", "/home/rocketmq/broker.conf")
            .waitingFor(Wait.forLogMessage(".*boot success.*", 1));
    int fast = brokerPort + RocketMqBroker.FAST_CHANNEL_OFFSET;
    int ha = brokerPort + RocketMqBroker.HA_OFFSET;
    broker.setPortBindings(
        List.of(brokerPort + ":" + brokerPort, fast + ":" + fast, ha + ":" + ha));
    ContainerServer brokerServer = new ContainerServer("rocketmq-broker", broker, brokerPort);
    try {
      brokerServer.create();
    } catch (RuntimeException e) {
      nameServer.close();
      throw e;
    }
    return EmbeddedRocketMq.attached(nameServer, namesrvPort, brokerServer, brokerPort);
  }

  @Override
  public EmbeddedPostgreSql postgres(Path dir) {
    int port = FreePorts.pick();
    GenericContainer<?> pg =
        container(ContainerImages.POSTGRES, port)
            .withEnv("POSTGRES_DB", EmbeddedPostgreSql.DATABASE)
            .withEnv("POSTGRES_USER", "postgres")
            .withEnv("POSTGRES_PASSWORD", "postgres")
            // As the embedded server: durability across a clean stop is enough for test data.
            .withCommand(
                "postgres",
                "-p",
                Integer.toString(port),
                "-c",
                "fsync=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "full_page_writes=off")
            // The image's entrypoint starts a temporary server for initdb first: wait for both.
            .waitingFor(
                Wait.forLogMessage(".*database system is ready to accept connections.*", 2));
    return EmbeddedPostgreSql.attached(new ContainerServer("postgresql", pg, port).create(), port);
  }

  @Override
  public EmbeddedRedisCluster redisCluster(Path dir, int masters) {
    throw new UnsupportedOperationException(
        unsupported(new InfraRequest(RedisMode.CLUSTER, ZkMode.NONE, false, false)).orElseThrow());
  }

  @Override
  public EmbeddedZooKeeperEnsemble zookeeperEnsemble(Path dir, int servers) {
    throw new UnsupportedOperationException(
        unsupported(new InfraRequest(RedisMode.NONE, ZkMode.ENSEMBLE, false, false)).orElseThrow());
  }

  /** A container on the backend's network whose server listens on {@code port}, bound to itself. */
  private GenericContainer<?> container(String image, int port) {
    GenericContainer<?> container =
        new GenericContainer<>(DockerImageName.parse(image)).withNetwork(network);
    container.setPortBindings(List.of(port + ":" + port));
    return container;
  }

  @Override
  public void close() {
    network.close();
  }
}
