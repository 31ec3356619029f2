package dev.kairos.node.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Every key under {@code kairos:} with its DUMP (type, content, encoding) and TTL, for asserting
 * that a rejected request changed nothing. A key that had a TTL and is gone afterwards expired on
 * its own (trigger records do) and is not counted as a change; any other difference is. When a
 * runtime token was last used ({@link RedisKeys#apiTokensLastUsed()}) is left out: authenticating
 * the refused request writes it, asynchronously, and that is bookkeeping, not the request's change.
 * The audit stream ({@link RedisKeys#auditLog()}) is compared by the id of the last entry ever
 * appended, not by its DUMP: the node's audit consumer acknowledges and trims it in the background,
 * and what matters is that a refused request appended no entry.
 */
final class RedisSnapshot {

  private record Entry(byte[] dump, long pttl) {}

  private final Map<String, Entry> entries;

  private RedisSnapshot(Map<String, Entry> entries) {
    this.entries = entries;
  }

  static RedisSnapshot take(RedisCommands<String, String> redis) {
    // A page's DUMPs and PTTLs are pipelined: one round trip per key made the create-API ITs
    // spend minutes on snapshots of the keys the module's earlier ITs left.
    RedisAsyncCommands<String, String> async = redis.getStatefulConnection().async();
    Map<String, Entry> entries = new TreeMap<>();
    ScanCursor cursor = ScanCursor.INITIAL;
    do {
      KeyScanCursor<String> page =
          redis.scan(cursor, ScanArgs.Builder.matches("kairos:*").limit(1000));
      List<String> keys = page.getKeys();
      List<CompletableFuture<byte[]>> dumps = new ArrayList<>(keys.size());
      List<CompletableFuture<Long>> ttls = new ArrayList<>(keys.size());
      for (String key : keys) {
        dumps.add(async.dump(key).toCompletableFuture());
        ttls.add(async.pttl(key).toCompletableFuture());
      }
      for (int i = 0; i < keys.size(); i++) {
        byte[] dump = dumps.get(i).join();
        if (keys.get(i).equals(RedisKeys.auditLog())) {
          entries.put(keys.get(i), new Entry(lastAppendedId(redis), -1));
        } else if (dump != null && !keys.get(i).equals(RedisKeys.apiTokensLastUsed())) {
          entries.put(keys.get(i), new Entry(dump, ttls.get(i).join()));
        }
      }
      cursor = page;
    } while (!cursor.isFinished());
    return new RedisSnapshot(entries);
  }

  /** XINFO STREAM's last-generated-id of the audit stream: moves with every append only. */
  private static byte[] lastAppendedId(RedisCommands<String, String> redis) {
    List<Object> info = redis.xinfoStream(RedisKeys.auditLog());
    for (int i = 0; i + 1 < info.size(); i += 2) {
      if ("last-generated-id".equals(String.valueOf(info.get(i)))) {
        return String.valueOf(info.get(i + 1)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      }
    }
    throw new IllegalStateException("XINFO STREAM without last-generated-id: " + info);
  }

  int size() {
    return entries.size();
  }

  /** Names every key that appeared, vanished (without a TTL) or changed since {@code before}. */
  List<String> changesSince(RedisSnapshot before) {
    List<String> changes = new ArrayList<>();
    for (var e : before.entries.entrySet()) {
      Entry now = entries.get(e.getKey());
      if (now == null) {
        if (e.getValue().pttl() < 0) {
          changes.add("deleted " + e.getKey());
        }
      } else if (!Arrays.equals(now.dump(), e.getValue().dump())) {
        changes.add("changed " + e.getKey());
      }
    }
    for (String key : entries.keySet()) {
      if (!before.entries.containsKey(key)) {
        changes.add("created " + key);
      }
    }
    return changes;
  }

  void assertUnchangedSince(RedisSnapshot before, String what) {
    assertThat(changesSince(before)).as("Redis keys changed by " + what).isEmpty();
  }
}
