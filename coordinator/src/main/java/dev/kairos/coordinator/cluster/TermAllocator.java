package dev.kairos.coordinator.cluster;

import dev.kairos.core.error.KairosException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Allocates leader terms once, ever: the candidate that creates the PERSISTENT znode {@code
 * terms/<T>} owns T forever, so a paused winner whose session expired can never be joined by a
 * second leader of T. The next term is above both ZooKeeper's highest term and the highest Redis
 * fence, so a wiped ZooKeeper cannot hand out a term below the fences (docs/design.md "Ownership
 * and crash windows"). Stateless, thread-safe.
 */
public final class TermAllocator {

  /** Term znodes kept by {@link #prune}: the newest ones, for operators reading the history. */
  public static final int RETAINED_TERMS = 100;

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
   * Tries to own {@code term}. Never succeeds for a term below the pruning watermark, so a pruned
   * term cannot be allocated a second time by a candidate that read the terms before a pause.
   *
   * @return true when this call created {@code terms/<term>}; false when someone else owns it, it
   *     was pruned, or a prune raced with this claim
   */
  public boolean tryClaim(long term, String owner) {
    byte[] data = owner.getBytes(StandardCharsets.UTF_8);
    try {
      Stat parent = new Stat();
      long prunedBelow;
      try {
        prunedBelow = watermark(client.getData().storingStatIn(parent).forPath(layout.terms()));
      } catch (KeeperException.NoNodeException e) {
        // No term was ever allocated here (or ZooKeeper was wiped): nothing can have been pruned.
        client
            .create()
            .creatingParentsIfNeeded()
            .withMode(CreateMode.PERSISTENT)
            .forPath(layout.term(term), data);
        return true;
      }
      if (term < prunedBelow) {
        return false;
      }
      // Safety: the version check fails if a prune raised the watermark since it was read.
      client
          .transaction()
          .forOperations(
              client
                  .transactionOp()
                  .check()
                  .withVersion(parent.getVersion())
                  .forPath(layout.terms()),
              client
                  .transactionOp()
                  .create()
                  .withMode(CreateMode.PERSISTENT)
                  .forPath(layout.term(term), data));
      return true;
    } catch (KeeperException.NodeExistsException | KeeperException.BadVersionException e) {
      return false;
    } catch (Exception e) {
      throw failure("cannot create " + layout.term(term), e);
    }
  }

  /**
   * Deletes the znodes of terms older than the newest {@value #RETAINED_TERMS} below {@code
   * current}, after raising the watermark (the data of {@code terms}) that {@link #tryClaim}
   * refuses to go below: terms stay allocated once, ever, while ZooKeeper keeps a bounded history.
   *
   * @return how many term znodes were deleted
   */
  public int prune(long current) {
    long below = current - RETAINED_TERMS + 1;
    if (below <= 1) {
      return 0;
    }
    try {
      Stat parent = new Stat();
      long watermark = watermark(client.getData().storingStatIn(parent).forPath(layout.terms()));
      if (watermark < below) {
        client
            .setData()
            .withVersion(parent.getVersion())
            .forPath(layout.terms(), Long.toString(below).getBytes(StandardCharsets.UTF_8));
      }
      int deleted = 0;
      for (String child : client.getChildren().forPath(layout.terms())) {
        if (Long.parseLong(child) < below) {
          try {
            client.delete().forPath(layout.terms() + "/" + child);
            deleted++;
          } catch (KeeperException.NoNodeException e) {
            // another leader pruned it
          }
        }
      }
      return deleted;
    } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
      return 0; // wiped, or another leader is pruning: next election prunes again
    } catch (Exception e) {
      throw failure("cannot prune terms below " + below, e);
    }
  }

  private static long watermark(byte[] data) {
    if (data == null || data.length == 0) {
      return 0;
    }
    try {
      return Long.parseLong(new String(data, StandardCharsets.UTF_8).trim());
    } catch (NumberFormatException e) {
      return 0; // Curator's default parent data (the client's IP) before the first prune
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
