package dev.kairos.core.store;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.util.List;
import java.util.Map;

/** Everything a job write can touch in one shard, for "bad input changes nothing" assertions. */
record ShardSnapshot(
    Map<String, String> job,
    List<ScoredValue<String>> due,
    List<String> index,
    List<String> appIndex,
    long eventCount,
    String lastEventId) {

  static ShardSnapshot of(KairosRedis redis, int shard, String jobId) {
    RedisClusterCommands<String, String> r = redis.sync();
    List<StreamMessage<String, String>> last =
        r.xrevrange(RedisKeys.events(shard), Range.create("-", "+"), Limit.from(1));
    return new ShardSnapshot(
        r.hgetall(RedisKeys.job(shard, jobId)),
        r.zrangeWithScores(RedisKeys.due(shard), 0, -1),
        r.zrange(RedisKeys.jobIds(shard), 0, -1),
        r.zrange(RedisKeys.appJobIds(shard), 0, -1),
        r.xlen(RedisKeys.events(shard)),
        last.isEmpty() ? "" : last.get(0).getId());
  }

  /** The body of the newest event of the shard's stream. */
  static Map<String, String> lastEvent(KairosRedis redis, int shard) {
    return redis
        .sync()
        .xrevrange(RedisKeys.events(shard), Range.create("-", "+"), Limit.from(1))
        .get(0)
        .getBody();
  }
}
