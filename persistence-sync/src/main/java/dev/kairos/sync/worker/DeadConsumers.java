package dev.kairos.sync.worker;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Removes consumers of the sync group that are idle past a bound and own no pending entries. Every
 * node start under a new consumer name (a new host, a container) adds a consumer to every shard's
 * group; without this they pile up forever. A dead consumer's pending entries are first taken over
 * by XAUTOCLAIM ({@code claimIdle}), so it reaches zero pending and is removed here. The check and
 * the delete run in one script ({@code delete_idle_consumer.lua}): DELCONSUMER drops a consumer's
 * pending entries, so it must never hit one that read something meanwhile.
 */
final class DeadConsumers {

  private final KairosRedis redis;
  private final String group;
  private final String self;
  private final long expiryMs;
  private final LuaScript delete = LuaScript.load(DeadConsumers.class, "delete_idle_consumer");

  DeadConsumers(KairosRedis redis, String group, String self, Duration expiry) {
    this.redis = redis;
    this.group = group;
    this.self = self;
    this.expiryMs = expiry.toMillis();
  }

  /** Removes the shard's dead consumers; returns their names. */
  List<String> sweep(int shard) {
    String stream = RedisKeys.events(shard);
    List<String> removed = new ArrayList<>();
    for (Object c : redis.sync().xinfoConsumers(stream, group)) {
      List<?> fields = (List<?>) c;
      String name = null;
      long pending = -1;
      long idle = -1;
      for (int i = 0; i + 1 < fields.size(); i += 2) {
        String key = String.valueOf(fields.get(i));
        Object value = fields.get(i + 1);
        switch (key) {
          case "name" -> name = String.valueOf(value);
          case "pending" -> pending = Long.parseLong(String.valueOf(value));
          case "idle" -> idle = Long.parseLong(String.valueOf(value));
          default -> {}
        }
      }
      if (name == null || name.equals(self) || pending != 0 || idle < expiryMs) {
        continue;
      }
      Long done =
          delete.eval(
              redis.sync(),
              ScriptOutputType.INTEGER,
              new String[] {stream},
              group,
              name,
              Long.toString(expiryMs));
      if (done == 1) {
        removed.add(name);
      }
    }
    return removed;
  }
}
