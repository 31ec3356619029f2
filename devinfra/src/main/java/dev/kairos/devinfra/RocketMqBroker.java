package dev.kairos.devinfra;

import java.nio.file.Path;
import org.apache.rocketmq.auth.config.AuthConfig;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.broker.BrokerPathConfigHelper;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * Builds the in-JVM broker: name and cluster {@value #NAME}, master id 0, topics created only on
 * request, and a store with small files (the defaults are a 1 GB commit log and ~420 MB index
 * files, sparse but still alarming in a work dir).
 *
 * <p>Ports: listen port p, the "fast" (VIP) channel that clients use for sends on p - 2, and the HA
 * port p + 1.
 */
final class RocketMqBroker {

  static final String NAME = "kairos";

  static final long SEND_QUEUE_WAIT_MS = 2_000;
  static final int FAST_CHANNEL_OFFSET = -2;
  static final int HA_OFFSET = 1;

  private static final int COMMIT_LOG_FILE_BYTES = 16 * 1024 * 1024;
  private static final int CONSUME_QUEUE_ENTRY_BYTES = 20;
  private static final int CONSUME_QUEUE_ENTRIES_PER_FILE = 30_000;

  private RocketMqBroker() {}

  /**
   * @param auth the broker's authentication and authorization (ACL 2.0), or null for none: the
   *     broker of {@link RealInfra}
   */
  static BrokerController create(
      Path storeDir, int port, String nameServerAddress, AuthConfig auth) {
    BrokerConfig broker = new BrokerConfig();
    broker.setBrokerName(NAME);
    broker.setBrokerClusterName(NAME);
    broker.setBrokerId(0);
    broker.setBrokerIP1("127.0.0.1");
    broker.setNamesrvAddr(nameServerAddress);
    broker.setListenPort(port);
    broker.setAutoCreateTopicEnable(false);
    broker.setAutoCreateSubscriptionGroup(true);
    broker.setFetchNamesrvAddrByAddressServer(false);
    broker.setTraceTopicEnable(false);
    // The default 200 ms wait in the send queue turns a CPU-starved 2-core build machine into
    // "broker busy" rejections, which measure the machine instead of Kairos; sends wait longer.
    broker.setWaitTimeMillsInSendQueue(SEND_QUEUE_WAIT_MS);

    NettyServerConfig server = new NettyServerConfig();
    server.setBindAddress("127.0.0.1");
    server.setListenPort(port);
    server.setServerWorkerThreads(4);
    server.setServerCallbackExecutorThreads(2);
    // The Netty worker group stays on (the default). Without it, RocketMQ 5.3.3 still runs the
    // TLS-detection handler of a new connection on the worker group while the decoder runs on the
    // I/O thread, so the first requests of a connection can reach the decoder out of order: the
    // broker reads a length from the middle of a frame and drops the connection
    // (BrokerFramingIT, docs/benchmarks.md).

    MessageStoreConfig store = new MessageStoreConfig();
    store.setStorePathRootDir(storeDir.toString());
    store.setStorePathCommitLog(storeDir.resolve("commitlog").toString());
    store.setMappedFileSizeCommitLog(COMMIT_LOG_FILE_BYTES);
    store.setMappedFileSizeConsumeQueue(CONSUME_QUEUE_ENTRIES_PER_FILE * CONSUME_QUEUE_ENTRY_BYTES);
    store.setMaxHashSlotNum(10_000);
    store.setMaxIndexNum(40_000);
    store.setHaListenPort(port + HA_OFFSET);
    store.setFlushDiskType(FlushDiskType.ASYNC_FLUSH);
    // Delayed messages are not part of the contract; the timer wheel would add two more big files.
    store.setTimerWheelEnable(false);
    // A nearly full build disk must not turn the broker read-only under the tests.
    store.setDiskMaxUsedSpaceRatio(98);

    // The broker writes broker.properties here; the default is ~/store/config.
    BrokerPathConfigHelper.setBrokerConfigPath(
        storeDir.resolve("config").resolve("broker.properties").toString());
    if (auth == null) {
      return new BrokerController(broker, server, new NettyClientConfig(), store);
    }
    // As the broker's own startup does: users and ACLs live in RocksDB under the store's config.
    auth.setConfigName(NAME);
    auth.setClusterName(NAME);
    auth.setAuthConfigPath(storeDir.resolve("config").toString());
    return new BrokerController(broker, server, new NettyClientConfig(), store, auth);
  }
}
