package dev.kairos.protocol.record;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Replaces the records of triggers that ended in SUCCESS, once their history is in PostgreSQL, by
 * tombstones ({@code compact_ended.lua}, {@link RedisKeys#ended}): Redis then holds a record per
 * trigger only while it is in flight and until its history is synced, instead of until its fire
 * time + the dedup window. Thread-safe.
 */
public final class EndedCompaction {

  private static final LuaScript COMPACT = LuaScript.load(EndedCompaction.class, "compact_ended");

  /** Most triggers in one script call: bounds the time one call holds Redis. */
  static final int MAX_GROUP = 512;

  /** A trigger whose TRIGGER_ENDED said SUCCESS. */
  public record Ended(String triggerId, long fireMs) {}

  private final KairosRedis redis;
  private final Duration dedupWindow;

  public EndedCompaction(KairosRedis redis, Duration dedupWindow) {
    this.redis = redis;
    this.dedupWindow = dedupWindow;
  }

  /**
   * Compacts what of {@code ended} (all of {@code shard}) the script finds compactable; the stages
   * of the calls (one per {@link #MAX_GROUP}) complete with the number compacted by each.
   */
  public List<CompletionStage<Long>> compact(int shard, List<Ended> ended) {
    List<CompletionStage<Long>> calls = new ArrayList<>();
    for (int from = 0; from < ended.size(); from += MAX_GROUP) {
      List<Ended> group = ended.subList(from, Math.min(ended.size(), from + MAX_GROUP));
      String[] args = new String[4 + 2 * group.size()];
      args[0] = RedisKeys.triggerPrefix(shard);
      args[1] = RedisKeys.endedPrefix(shard);
      args[2] = Long.toString(RedisKeys.ENDED_BUCKET_MS);
      args[3] = Long.toString(dedupWindow.toMillis());
      for (int i = 0; i < group.size(); i++) {
        args[4 + 2 * i] = group.get(i).triggerId();
        args[5 + 2 * i] = Long.toString(group.get(i).fireMs());
      }
      calls.add(
          COMPACT.<Long>evalAsync(
              redis.async(),
              ScriptOutputType.INTEGER,
              new String[] {RedisKeys.events(shard)},
              args));
    }
    return calls;
  }
}
