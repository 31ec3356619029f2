package dev.kairos.coordinator.cluster;

import dev.kairos.core.error.KairosException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * Allocates leader terms once, ever: the candidate that creates the PERSISTENT znode {@code
 * terms/<T>} owns T forever, so a paused winner whose session expired can never be joined by a
 * second leader of T. The next term is above both ZooKeeper's highest term and the highest Redis
 * fence, so a wiped ZooKeeper cannot hand out a term below the fences (DESIGN "Ownership and crash
 * windows"). Stateless, thread-safe.
 */
public final class TermAllocator {

  private final CuratorFramework client;
  private final ZkLayout layout;
  private final LongSupplier highestFence;

  /**
   * @param highestFence the highest shard fence in Redis, e.g. {@code ShardFence::highestFence}
   */
  public TermAllocator(CuratorFramework client, ZkLayout layout, LongSupplier highestFence) {
    this.client = client;
    this.layout = layout;
    this.highestFence = highestFence;
  }

  /** The highest term ever allocated in ZooKeeper, 0 when none. */
  public long highestAllocated() {
    try {
      List<String> children = client.getChildren().forPath(layout.terms());
      long highest = 0;
      for (String child : children) {
        highest = Math.max(highest, Long.parseLong(child));
      }
      return highest;
    } catch (KeeperException.NoNodeException e) {
      return 0;
    } catch (Exception e) {
      throw failure("cannot read " + layout.terms(), e);
    }
  }

  /** max(ZooKeeper's highest term, Redis' highest fence) + 1. */
  public long nextTerm() {
    return nextTermAbove(highestAllocated());
  }

  /** max({@code allocated}, Redis' highest fence) + 1, for a caller that already read ZooKeeper. */
  public long nextTermAbove(long allocated) {
    return Math.max(allocated, highestFence.getAsLong()) + 1;
  }

  /**
   * Tries to own {@code term}.
   *
   * @return true when this call created {@code terms/<term>}; false when someone else owns it
   */
  public boolean tryClaim(long term, String owner) {
    try {
      client
          .create()
          .creatingParentsIfNeeded()
          .withMode(CreateMode.PERSISTENT)
          .forPath(layout.term(term), owner.getBytes(StandardCharsets.UTF_8));
      return true;
    } catch (KeeperException.NodeExistsException e) {
      return false;
    } catch (Exception e) {
      throw failure("cannot create " + layout.term(term), e);
    }
  }

  /** Who owns {@code term}, or null when it was never allocated. */
  public String owner(long term) {
    try {
      return new String(client.getData().forPath(layout.term(term)), StandardCharsets.UTF_8);
    } catch (KeeperException.NoNodeException e) {
      return null;
    } catch (Exception e) {
      throw failure("cannot read " + layout.term(term), e);
    }
  }

  static KairosException failure(String what, Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    return new KairosException(what + ": " + e, e);
  }
}
