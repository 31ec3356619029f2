package dev.kairos.protocol;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import java.util.Map;

/**
 * The job hash a start claim checks (claim_start drops a trigger whose job is gone, disabled or
 * rescheduled since its dispatch): tests that write trigger records by hand write their job too.
 */
public final class LiveJobs {

  /** The schedule version of the jobs this writes; records written beside them carry it. */
  public static final String VERSION = "1";

  private LiveJobs() {}

  /** An enabled job at schedule version {@link #VERSION}, in its shard of {@code keys}. */
  public static void put(KairosRedis redis, RedisKeys keys, String jobId) {
    redis
        .sync()
        .hset(
            RedisKeys.job(keys.shardOf(jobId), jobId),
            Map.of("id", jobId, "scheduleVersion", VERSION, "enabled", "true"));
  }
}
