package dev.kairos.sync.worker;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.sync.event.StreamId;
import io.lettuce.core.Range;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XTrimArgs;
import io.lettuce.core.models.stream.PendingMessages;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
    try {
      redis
          .sync()
          .xgroupCreate(
              XReadArgs.StreamOffset.from(RedisKeys.events(shard), "0"),
              group,
              XGroupCreateArgs.Builder.mkstream());
    } catch (RedisCommandExecutionException e) {
      if (!String.valueOf(e.getMessage()).startsWith("BUSYGROUP")) {
        throw e;
      }
    }
  }

  static boolean isNoGroup(RuntimeException e) {
    return e instanceof RedisCommandExecutionException
        && String.valueOf(e.getMessage()).startsWith("NOGROUP");
  }

  /** The group's last-delivered id, empty when the group does not exist. */
  Optional<StreamId> lastDelivered(int shard) {
    return Optional.ofNullable(lastDeliveredByGroup(shard).get(group));
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

  PendingMessages pending(int shard) {
    return redis.sync().xpending(RedisKeys.events(shard), group);
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

  /** Id of the oldest entry not yet acknowledged by the group, if any. */
  Optional<StreamId> oldestUnsynced(int shard) {
    Optional<StreamId> last = lastDelivered(shard);
    if (last.isEmpty()) {
      // No group yet (no worker has started): everything in the stream is unsynced.
      var first =
          redis
              .sync()
              .xrange(
                  RedisKeys.events(shard), Range.create("-", "+"), io.lettuce.core.Limit.from(1));
      return first.isEmpty() ? Optional.empty() : Optional.of(StreamId.parse(first.get(0).getId()));
    }
    PendingMessages pending = pending(shard);
    if (pending.getCount() > 0) {
      return Optional.of(StreamId.parse(pending.getMessageIds().getLower().getValue()));
    }
    var next =
        redis
            .sync()
            .xrange(
                RedisKeys.events(shard),
                Range.create(last.get().next().toString(), "+"),
                io.lettuce.core.Limit.from(1));
    return next.isEmpty() ? Optional.empty() : Optional.of(StreamId.parse(next.get(0).getId()));
  }
}
