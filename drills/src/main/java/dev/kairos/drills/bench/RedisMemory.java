package dev.kairos.drills.bench;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import java.util.Locale;

/**
 * What Redis holds at one moment: {@code used_memory} ({@code INFO memory}, bytes the allocator
 * handed to Redis), {@code DBSIZE} (keys of the selected database, all of Kairos') and how far
 * persistence-sync trails (records stay full size until their history is written).
 */
record RedisMemory(long usedMemory, long keys, SyncBacklog sync) {

  /** Reads all three now; {@code withSync} false (no persistence-sync) reads no backlog. */
  static RedisMemory read(KairosRedis redis, RedisKeys shards, boolean withSync) {
    return new RedisMemory(
        usedMemory(redis.sync().info("memory")),
        redis.sync().dbsize(),
        withSync ? SyncBacklog.read(redis, shards) : null);
  }

  /** {@code used_memory} from the text of {@code INFO memory}; -1 when absent. */
  static long usedMemory(String info) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("used_memory:")) {
        return Long.parseLong(line.substring("used_memory:".length()).trim());
      }
    }
    return -1;
  }

  /** {@code used_memory} in MB (10^6 bytes), one decimal. */
  String usedMegabytes() {
    return usedMemory < 0 ? "–" : String.format(Locale.ROOT, "%,.1f", usedMemory / 1e6);
  }

  String keysText() {
    return String.format(Locale.ROOT, "%,d", keys);
  }

  /** Seconds persistence-sync trails the newest event, or "–" without it. */
  String syncBehindText() {
    return sync == null ? "–" : String.format(Locale.ROOT, "%.1f", sync.behindMs() / 1e3);
  }

  @Override
  public String toString() {
    return "used_memory "
        + usedMegabytes()
        + " MB, "
        + keysText()
        + " keys"
        + (sync == null ? "" : ", history sync " + sync);
  }
}
