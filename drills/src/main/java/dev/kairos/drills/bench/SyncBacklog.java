package dev.kairos.drills.bench;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.sync.worker.SyncConfig;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How far persistence-sync trails the shards' event streams at one moment: a trigger's record stays
 * in Redis (full size) until its end event is synced and compacted, so a sync that falls behind
 * shows as Redis memory that grows with the fire rate, and a row measured while an earlier row's
 * backlog is still being written pays for that row's history.
 *
 * @param behindMs the largest gap over the shards between the newest event's id time and the last
 *     one delivered to the sync group (0: every event delivered)
 * @param pending events delivered to the sync group and not yet acknowledged (written)
 */
record SyncBacklog(long behindMs, long pending) {

  static final SyncBacklog NONE = new SyncBacklog(0, 0);

  boolean caughtUp() {
    return behindMs == 0 && pending == 0;
  }

  /** Reads every shard's stream and its sync group now. */
  static SyncBacklog read(KairosRedis redis, RedisKeys keys) {
    long behind = 0;
    long pending = 0;
    for (int shard = 0; shard < keys.shards(); shard++) {
      String stream = RedisKeys.events(shard);
      if (redis.sync().exists(stream) == 0) {
        continue;
      }
      String lastGenerated = (String) field(redis.sync().xinfoStream(stream), "last-generated-id");
      for (Object group : redis.sync().xinfoGroups(stream)) {
        List<?> info = (List<?>) group;
        if (!SyncConfig.DEFAULT_GROUP.equals(field(info, "name"))) {
          continue;
        }
        String lastDelivered = (String) field(info, "last-delivered-id");
        if (!Objects.equals(lastGenerated, lastDelivered)) {
          behind = Math.max(behind, Math.max(1, idMs(lastGenerated) - idMs(lastDelivered)));
        }
        pending += ((Number) field(info, "pending")).longValue();
      }
    }
    return new SyncBacklog(behind, pending);
  }

  /** The value after {@code name} in a flat name/value reply. */
  private static Object field(List<?> reply, String name) {
    for (int i = 0; i + 1 < reply.size(); i += 2) {
      if (name.equals(String.valueOf(reply.get(i)))) {
        return reply.get(i + 1);
      }
    }
    throw new IllegalStateException("no " + name + " in " + reply);
  }

  /** The millisecond part of a stream id ({@code <ms>-<seq>}). */
  static long idMs(String id) {
    int dash = id.indexOf('-');
    return Long.parseLong(dash < 0 ? id : id.substring(0, dash));
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%.1f s behind, %,d pending", behindMs / 1e3, pending);
  }
}
