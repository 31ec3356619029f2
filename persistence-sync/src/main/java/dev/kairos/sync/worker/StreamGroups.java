package dev.kairos.sync.worker;

import dev.kairos.core.redis.ConsumerGroups;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.sync.event.StreamId;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.XTrimArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.models.stream.PendingMessages;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * The consumer group's view of one shard stream: create, trim (below what every group of the stream
 * has acknowledged), and how far behind it is.
 */
final class StreamGroups {

  private final KairosRedis redis;
  private final String group;

  StreamGroups(KairosRedis redis, String group) {
    this.redis = redis;
    this.group = group;
  }

  /** Creates the group at id 0 (reads the whole stream) with MKSTREAM; an existing one stays. */
  void ensure(int shard) {
    ConsumerGroups.create(redis, RedisKeys.events(shard), group);
  }

  static boolean isNoGroup(RuntimeException e) {
    return ConsumerGroups.isNoGroup(e);
  }

  /**
   * Every consumer group of the shard's stream (this one, the lifecycle's, any other) with its
   * last-delivered id; empty when the stream does not exist.
   */
  Map<String, StreamId> lastDeliveredByGroup(int shard) {
    List<Object> groups;
    try {
      groups = redis.sync().xinfoGroups(RedisKeys.events(shard));
    } catch (RedisCommandExecutionException e) {
      return Map.of(); // no such stream
    }
    return byGroup(groups);
  }

  /** XINFO GROUPS' answer as group name → last-delivered id. */
  private static Map<String, StreamId> byGroup(List<Object> groups) {
    Map<String, StreamId> byGroup = new LinkedHashMap<>();
    for (Object g : groups) {
      List<?> fields = (List<?>) g;
      String name = null;
      String last = null;
      for (int i = 0; i + 1 < fields.size(); i += 2) {
        String key = String.valueOf(fields.get(i));
        if (key.equals("name")) {
          name = String.valueOf(fields.get(i + 1));
        } else if (key.equals("last-delivered-id")) {
          last = String.valueOf(fields.get(i + 1));
        }
      }
      if (name != null && last != null) {
        byGroup.put(name, StreamId.parse(last));
      }
    }
    return byGroup;
  }

  /**
   * The id below which every entry has been acknowledged by EVERY consumer group of the stream, so
   * trimming below it never drops an entry another reader (the lifecycle worker's group) has not
   * processed yet. Empty when some group has delivered nothing yet, or there is no group.
   *
   * <p>Safety: the groups' last-delivered ids are read BEFORE their pending summaries, so an entry
   * delivered in between is either pending (and bounds the result) or newer than the last-delivered
   * id read.
   */
  Optional<StreamId> acknowledgedBelow(int shard) {
    Map<String, StreamId> lastByGroup = lastDeliveredByGroup(shard);
    if (!lastByGroup.containsKey(group)) {
      return Optional.empty(); // this worker's own group first: it is created before any trim
    }
    StreamId below = null;
    for (Map.Entry<String, StreamId> g : lastByGroup.entrySet()) {
      Optional<StreamId> groupBelow = acknowledgedBelow(shard, g.getKey(), g.getValue());
      if (groupBelow.isEmpty()) {
        return Optional.empty();
      }
      if (below == null || groupBelow.get().compareTo(below) < 0) {
        below = groupBelow.get();
      }
    }
    return Optional.ofNullable(below);
  }

  private Optional<StreamId> acknowledgedBelow(int shard, String name, StreamId last) {
    if (last.equals(new StreamId(0, 0))) {
      return Optional.empty();
    }
    PendingMessages pending = redis.sync().xpending(RedisKeys.events(shard), name);
    if (pending.getCount() > 0) {
      return Optional.of(StreamId.parse(pending.getMessageIds().getLower().getValue()));
    }
    return Optional.of(last.next());
  }

  /**
   * XTRIM MINID: removes only entries every group has acknowledged; returns how many were removed.
   */
  long trim(int shard) {
    Optional<StreamId> below = acknowledgedBelow(shard);
    if (below.isEmpty()) {
      return 0;
    }
    Long removed =
        redis
            .sync()
            .xtrim(RedisKeys.events(shard), XTrimArgs.Builder.minId(below.get().toString()));
    return removed == null ? 0 : removed;
  }

  /**
   * How far the group is behind on each of shards 0..shards-1: pending count, stream length and the
   * oldest entry it has not acknowledged. Read in two pipelined waves (XINFO GROUPS, XPENDING and
   * XLEN of every shard, then one XRANGE where the answer is not in the pending summary), not five
   * round trips per shard one after the other.
   *
   * <p>Each shard's XINFO GROUPS is sent before its XPENDING on the same connection, so an entry
   * delivered in between is either pending or newer than the last-delivered id read.
   */
  List<Backlog> backlogs(int shards) {
    RedisClusterAsyncCommands<String, String> async = redis.async();
    List<CompletableFuture<Map<String, StreamId>>> infos = new ArrayList<>(shards);
    List<CompletableFuture<Optional<PendingMessages>>> pendings = new ArrayList<>(shards);
    List<CompletableFuture<Long>> lengths = new ArrayList<>(shards);
    for (int s = 0; s < shards; s++) {
      String key = RedisKeys.events(s);
      infos.add(orIfRefused(async.xinfoGroups(key), StreamGroups::byGroup, Map.of()));
      pendings.add(orIfRefused(async.xpending(key, group), Optional::of, Optional.empty()));
      lengths.add(async.xlen(key).toCompletableFuture());
    }
    List<CompletableFuture<Optional<StreamId>>> oldest = new ArrayList<>(shards);
    for (int s = 0; s < shards; s++) {
      String key = RedisKeys.events(s);
      StreamId last = infos.get(s).join().get(group);
      // Without the group, XPENDING was refused (NOGROUP): no pending summary.
      Optional<PendingMessages> pending = pendings.get(s).join();
      if (pending.isPresent() && pending.get().getCount() > 0) {
        StreamId lowest = StreamId.parse(pending.get().getMessageIds().getLower().getValue());
        oldest.add(CompletableFuture.completedFuture(Optional.of(lowest)));
      } else {
        // No group yet (no worker has started): everything in the stream is unsynced.
        String from = last == null ? "-" : last.next().toString();
        oldest.add(
            async
                .xrange(key, Range.create(from, "+"), Limit.from(1))
                .toCompletableFuture()
                .thenApply(
                    first ->
                        first.isEmpty()
                            ? Optional.empty()
                            : Optional.of(StreamId.parse(first.get(0).getId()))));
      }
    }
    List<Backlog> backlogs = new ArrayList<>(shards);
    for (int s = 0; s < shards; s++) {
      long pending = pendings.get(s).join().map(PendingMessages::getCount).orElse(0L);
      Long length = lengths.get(s).join();
      backlogs.add(new Backlog(s, pending, length == null ? 0 : length, oldest.get(s).join()));
    }
    return backlogs;
  }

  /** One shard's {@link #backlogs}: the oldest unacknowledged entry is empty when there is none. */
  record Backlog(int shard, long pending, long length, Optional<StreamId> oldestUnsynced) {}

  /**
   * Redis' refusal (no such stream, no such group) becomes {@code refused}; a timeout or a lost
   * connection still fails the future.
   */
  private static <T, R> CompletableFuture<R> orIfRefused(
      RedisFuture<T> answer, Function<T, R> map, R refused) {
    return answer
        .toCompletableFuture()
        .handle(
            (value, failure) -> {
              if (failure == null) {
                return map.apply(value);
              }
              Throwable cause =
                  failure instanceof CompletionException ? failure.getCause() : failure;
              if (cause instanceof RedisCommandExecutionException) {
                return refused;
              }
              throw failure instanceof CompletionException c ? c : new CompletionException(cause);
            });
  }
}
