package dev.kairos.drills.bench;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * What the stored jobs cost Redis at one level: {@code used_memory} and keys, {@code MEMORY USAGE …
 * SAMPLES 0} (exact) of a random sample of job hashes beside the bytes of their fields and values
 * (the definition's own bytes), and of every shard's per-shard job keys ({@link #shardKeys}: the
 * due set, the ordered job indexes a cursor-paged list reads and the enabled-apps count), summed
 * and divided by the jobs stored. A key that does not exist counts 0.
 *
 * @param usedMemory Redis' {@code used_memory}, bytes
 * @param keys {@code DBSIZE}
 * @param sampled job hashes measured
 * @param hashBytes mean {@code MEMORY USAGE} of a job hash
 * @param payloadBytes mean bytes of a job hash's field names and values (the definition)
 * @param shardKeyBytes every shard's due set, job indexes and app counts, summed
 * @param streamBytes every shard's event stream ({@code kairos:{s}:events}), summed: job changes
 *     and trigger ends not yet trimmed (persistence-sync trims what every group has read)
 */
record JobMemory(
    long usedMemory,
    long keys,
    int sampled,
    double hashBytes,
    double payloadBytes,
    long shardKeyBytes,
    long streamBytes) {

  private static final long WAIT_S = 60;

  /** Shard {@code s}'s keys of the job store, besides the job hashes. */
  static List<String> shardKeys(int s) {
    return List.of(
        RedisKeys.due(s), RedisKeys.jobIds(s), RedisKeys.appJobIds(s), RedisKeys.enabledApps(s));
  }

  /** Measures now, sampling {@code samples} of the {@code jobs} stored ({@code scale-…} ids). */
  static JobMemory measure(KairosRedis redis, RedisKeys keys, long jobs, int samples, long seed) {
    RedisMemory memory = RedisMemory.read(redis, keys, false);
    SplittableRandom random = new SplittableRandom(seed);
    int n = (int) Math.min(samples, jobs);
    List<RedisFuture<Long>> usage = new ArrayList<>(n);
    List<RedisFuture<Map<String, String>>> fields = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      String id = ScaleMix.id(random.nextLong(jobs));
      String key = RedisKeys.job(keys.shardOf(id), id);
      usage.add(memoryUsage(redis, key));
      fields.add(redis.async().hgetall(key));
    }
    long usageSum = 0;
    long payloadSum = 0;
    int found = 0;
    for (int k = 0; k < n; k++) {
      Long bytes = await(usage.get(k));
      Map<String, String> hash = await(fields.get(k));
      if (bytes == null || hash.isEmpty()) {
        continue; // a job deleted meanwhile: none are, but never count a missing key as 0 B
      }
      found++;
      usageSum += bytes;
      for (Map.Entry<String, String> e : hash.entrySet()) {
        payloadSum += utf8(e.getKey()) + utf8(e.getValue());
      }
    }
    List<RedisFuture<Long>> shardUsage = new ArrayList<>();
    for (int s = 0; s < keys.shards(); s++) {
      for (String key : shardKeys(s)) {
        shardUsage.add(memoryUsage(redis, key));
      }
    }
    long shardKeyBytes = 0;
    for (RedisFuture<Long> f : shardUsage) {
      Long bytes = await(f);
      shardKeyBytes += bytes == null ? 0 : bytes;
    }
    List<RedisFuture<Long>> streams = new ArrayList<>();
    for (int s = 0; s < keys.shards(); s++) {
      streams.add(memoryUsage(redis, RedisKeys.events(s)));
    }
    long streamBytes = 0;
    for (RedisFuture<Long> f : streams) {
      Long bytes = await(f);
      streamBytes += bytes == null ? 0 : bytes;
    }
    return new JobMemory(
        memory.usedMemory(),
        memory.keys(),
        found,
        found == 0 ? Double.NaN : usageSum / (double) found,
        found == 0 ? Double.NaN : payloadSum / (double) found,
        shardKeyBytes,
        streamBytes);
  }

  /** The job store's bytes per job: a mean job hash plus its share of the per-shard keys. */
  double storeBytesPerJob(long jobs) {
    return hashBytes + shardKeyBytes / (double) jobs;
  }

  /** What a job costs beyond its definition's own bytes. */
  double overheadBytesPerJob(long jobs) {
    return storeBytesPerJob(jobs) - payloadBytes;
  }

  private static RedisFuture<Long> memoryUsage(KairosRedis redis, String key) {
    return redis
        .async()
        .dispatch(
            CommandType.MEMORY,
            new IntegerOutput<>(StringCodec.UTF8),
            new CommandArgs<>(StringCodec.UTF8).add("USAGE").addKey(key).add("SAMPLES").add(0));
  }

  private static int utf8(String s) {
    return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static <T> T await(RedisFuture<T> future) {
    try {
      return future.get(WAIT_S, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading Redis memory", e);
    } catch (Exception e) {
      throw new IllegalStateException("reading Redis memory failed: " + e, e);
    }
  }
}
