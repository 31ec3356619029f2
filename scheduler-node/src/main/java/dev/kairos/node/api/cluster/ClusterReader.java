package dev.kairos.node.api.cluster;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.coordinator.cluster.LeaderRecord;
import dev.kairos.coordinator.cluster.ZkLayout;
import dev.kairos.core.error.KairosException;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.ScoredValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * Reads the cluster's state where it lives: membership and the leader znode in ZooKeeper; node
 * sets, wheel sizes, fences and due ZSET heads in Redis, each a pipelined round over the shards (no
 * SCAN). O(nodes × shards) commands per call.
 */
public final class ClusterReader {

  private static final ObjectMapper ZNODES =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final CuratorFramework zk;
  private final ZkLayout layout;
  private final KairosRedis redis;
  private final RedisKeys keys;
  private final Duration timeout;

  public ClusterReader(
      CuratorFramework zk, ZkLayout layout, KairosRedis redis, RedisKeys keys, Duration timeout) {
    this.zk = zk;
    this.layout = layout;
    this.redis = redis;
    this.keys = keys;
    this.timeout = timeout;
  }

  public List<ClusterView.Member> members() {
    List<ClusterView.Member> members = new ArrayList<>();
    try {
      for (String child : zk.getChildren().forPath(layout.members())) {
        byte[] data = readOrNull(layout.member(child));
        if (data != null) {
          dev.kairos.coordinator.cluster.Member m =
              ZNODES.readValue(data, dev.kairos.coordinator.cluster.Member.class);
          members.add(
              new ClusterView.Member(m.name(), m.incarnation(), m.internalAddress(), m.startMs()));
        }
      }
    } catch (KeeperException.NoNodeException e) {
      return List.of();
    } catch (Exception e) {
      throw new KairosException("cannot read the members from ZooKeeper", e);
    }
    members.sort(java.util.Comparator.comparing(ClusterView.Member::name));
    return members;
  }

  public ClusterView.Leader leader() {
    try {
      byte[] data = readOrNull(layout.leader());
      if (data == null) {
        return null;
      }
      LeaderRecord r = ZNODES.readValue(data, LeaderRecord.class);
      return new ClusterView.Leader(r.leaderId(), r.term(), r.address());
    } catch (Exception e) {
      throw new KairosException("cannot read the leader znode", e);
    }
  }

  /** Wheel and inflight sizes of every node name found in the shards' node sets. */
  public List<ClusterView.Wheel> wheels(Set<String> liveNames) {
    List<CompletableFuture<Set<String>>> sets = new ArrayList<>();
    for (int s = 0; s < keys.shards(); s++) {
      sets.add(redis.async().smembers(RedisKeys.nodes(s)).toCompletableFuture());
    }
    Set<String> names = new TreeSet<>(liveNames);
    sets.forEach(f -> names.addAll(await(f)));
    Map<String, List<CompletableFuture<Long>>> wheel = new TreeMap<>();
    Map<String, List<CompletableFuture<Long>>> inflight = new TreeMap<>();
    for (String node : names) {
      for (int s = 0; s < keys.shards(); s++) {
        wheel
            .computeIfAbsent(node, n -> new ArrayList<>())
            .add(redis.async().zcard(RedisKeys.wheel(s, node)).toCompletableFuture());
        inflight
            .computeIfAbsent(node, n -> new ArrayList<>())
            .add(redis.async().zcard(RedisKeys.inflight(s, node)).toCompletableFuture());
      }
    }
    List<ClusterView.Wheel> wheels = new ArrayList<>();
    for (String node : names) {
      wheels.add(
          new ClusterView.Wheel(
              node, liveNames.contains(node), sum(wheel.get(node)), sum(inflight.get(node))));
    }
    return wheels;
  }

  public ClusterView.Fences fences() {
    List<CompletableFuture<String>> reads = new ArrayList<>();
    for (int s = 0; s < keys.shards(); s++) {
      reads.add(redis.async().get(RedisKeys.fence(s)).toCompletableFuture());
    }
    long lowest = Long.MAX_VALUE;
    long highest = 0;
    for (CompletableFuture<String> read : reads) {
      String value = await(read);
      long fence = value == null ? 0 : Long.parseLong(value);
      lowest = Math.min(lowest, fence);
      highest = Math.max(highest, fence);
    }
    return new ClusterView.Fences(reads.isEmpty() ? 0 : lowest, highest);
  }

  public ClusterView.Scan scan(long nowMs) {
    List<CompletableFuture<List<ScoredValue<String>>>> heads = new ArrayList<>();
    for (int s = 0; s < keys.shards(); s++) {
      heads.add(redis.async().zrangeWithScores(RedisKeys.due(s), 0, 0).toCompletableFuture());
    }
    Long oldest = null;
    for (CompletableFuture<List<ScoredValue<String>>> head : heads) {
      for (ScoredValue<String> v : await(head)) {
        if (!Double.isInfinite(v.getScore())) {
          long score = (long) v.getScore();
          oldest = oldest == null ? score : Math.min(oldest, score);
        }
      }
    }
    return new ClusterView.Scan(oldest, oldest == null ? 0 : Math.max(0, nowMs - oldest));
  }

  private byte[] readOrNull(String path) throws Exception {
    try {
      return zk.getData().forPath(path);
    } catch (KeeperException.NoNodeException e) {
      return null;
    }
  }

  private long sum(List<CompletableFuture<Long>> calls) {
    long total = 0;
    for (CompletableFuture<Long> call : calls) {
      total += await(call);
    }
    return total;
  }

  private <T> T await(CompletableFuture<T> future) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted reading the cluster state", e);
    } catch (Exception e) {
      throw new KairosException("cannot read the cluster state from Redis", e);
    }
  }
}
