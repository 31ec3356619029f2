package dev.kairos.coordinator.cluster;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader znode ({@link ZkLayout#leader()}): an ephemeral {@link LeaderRecord} naming the term's
 * leader, read through a cache on every tick and afresh where the cache may lag. ZooKeeper I/O
 * only; what to make of it is {@link TermState}'s. Start before use, close once.
 */
final class LeaderZnode implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LeaderZnode.class);

  /** How often a publish retries while other nodes change the znode under it. */
  private static final int PUBLISH_ATTEMPTS = 5;

  /**
   * What a publish did.
   *
   * @param published whether the znode now names the new leader
   * @param higherTerm the term of a leader at or above the one published (0 when none was seen)
   */
  record Publish(boolean published, long higherTerm) {}

  private final CuratorFramework client;
  private final String path;
  private final CuratorCache cache;

  LeaderZnode(CuratorFramework client, ZkLayout layout) {
    this.client = client;
    this.path = layout.leader();
    this.cache = CuratorCache.build(client, path);
  }

  /** Starts the cache; {@code onChange} runs on Curator's thread at every change. */
  void start(Runnable onChange) {
    cache.listenable().addListener((type, before, after) -> onChange.run());
    cache.start();
  }

  /** The znode as the cache has it (may lag a just-published change), or null. */
  LeaderRecord cached() {
    ChildData node = cache.get(path).orElse(null);
    if (node == null || node.getData() == null) {
      return null;
    }
    return Json.read(node.getData(), LeaderRecord.class, path);
  }

  /** The znode read from ZooKeeper, or null. */
  LeaderRecord read() {
    try {
      return Json.read(client.getData().forPath(path), LeaderRecord.class, path);
    } catch (KeeperException.NoNodeException e) {
      return null;
    } catch (Exception e) {
      throw TermAllocator.failure("cannot read " + path, e);
    }
  }

  /**
   * Creates the znode, replacing a lower-term one atomically; never replaces an equal or higher.
   */
  Publish publish(LeaderRecord mine) {
    byte[] bytes = Json.write(mine);
    for (int attempt = 0; attempt < PUBLISH_ATTEMPTS; attempt++) {
      try {
        Stat stat = new Stat();
        byte[] data;
        try {
          data = client.getData().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException e) {
          client
              .create()
              .creatingParentContainersIfNeeded()
              .withMode(CreateMode.EPHEMERAL)
              .forPath(path, bytes);
          return new Publish(true, 0);
        }
        LeaderRecord current = Json.read(data, LeaderRecord.class, path);
        if (current.term() >= mine.term()) {
          return new Publish(false, current.term());
        }
        client
            .transaction()
            .forOperations(
                client.transactionOp().delete().withVersion(stat.getVersion()).forPath(path),
                client
                    .transactionOp()
                    .create()
                    .withMode(CreateMode.EPHEMERAL)
                    .forPath(path, bytes));
        return new Publish(true, 0);
      } catch (KeeperException.NodeExistsException
          | KeeperException.BadVersionException
          | KeeperException.NoNodeException e) {
        log.debug("leader znode changed while publishing term {}; retrying", mine.term());
      } catch (Exception e) {
        throw TermAllocator.failure("cannot publish leader of term " + mine.term(), e);
      }
    }
    return new Publish(false, 0);
  }

  /**
   * Deletes the znode if it is still {@code stale}'s: this incarnation's, of that term, at the
   * version read, never a newer leader's.
   *
   * @return whether it deleted it
   */
  boolean deleteIfStill(LeaderRecord stale, String incarnation) {
    try {
      Stat stat = new Stat();
      LeaderRecord current =
          Json.read(client.getData().storingStatIn(stat).forPath(path), LeaderRecord.class, path);
      if (current.incarnation().equals(incarnation) && current.term() == stale.term()) {
        client.delete().withVersion(stat.getVersion()).forPath(path);
        return true;
      }
      return false;
    } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
      return false; // someone replaced it: fine
    } catch (Exception e) {
      throw TermAllocator.failure("cannot delete stale leader znode", e);
    }
  }

  boolean connected() {
    return client.getZookeeperClient().isConnected();
  }

  @Override
  public void close() {
    cache.close();
  }
}
