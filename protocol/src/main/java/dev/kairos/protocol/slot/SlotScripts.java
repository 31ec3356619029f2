package dev.kairos.protocol.slot;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.core.error.KairosException;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The slot lease scripts and the lease JSON they store; one instance per process is enough. Public
 * for executor-mq's {@code SlotLease} and {@code SlotRegistry}, which hold the leases and read
 * them.
 */
public final class SlotScripts {

  /** Outcome of a claim or renewal: {@code slot} is -1 / {@code ok} false when nothing was got. */
  public record Answer(boolean ok, int slot, long nowMs, long expiresMs) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private final KairosRedis redis;
  private final LuaScript claim = LuaScript.load(SlotScripts.class, "claim_slot");
  private final LuaScript renew = LuaScript.load(SlotScripts.class, "renew_slot");
  private final LuaScript release = LuaScript.load(SlotScripts.class, "release_slot");
  private final LuaScript live = LuaScript.load(SlotScripts.class, "live_slots");

  public SlotScripts(KairosRedis redis) {
    this.redis = redis;
  }

  public Answer claim(
      String app, String instanceId, int slotCount, Duration ttl, String host, List<String> h) {
    List<Object> reply =
        claim.eval(
            redis.sync(),
            ScriptOutputType.MULTI,
            new String[] {RedisKeys.slots(app)},
            instanceId,
            Integer.toString(slotCount),
            Long.toString(ttl.toMillis()),
            host,
            json(h));
    int slot = ((Long) reply.get(0)).intValue();
    return new Answer(slot >= 0, slot, (Long) reply.get(1), (Long) reply.get(2));
  }

  /**
   * @param progress the received-through time per hosted handler, written into the lease as is
   */
  public Answer renew(
      String app,
      int slot,
      String instanceId,
      Duration ttl,
      boolean busy,
      Map<String, Long> progress) {
    List<Object> reply =
        renew.eval(
            redis.sync(),
            ScriptOutputType.MULTI,
            new String[] {RedisKeys.slots(app)},
            Integer.toString(slot),
            instanceId,
            Long.toString(ttl.toMillis()),
            busy ? "1" : "0",
            json(progress));
    return new Answer((Long) reply.get(0) == 1L, slot, (Long) reply.get(1), (Long) reply.get(2));
  }

  public boolean release(String app, int slot, String instanceId) {
    Long removed =
        release.eval(
            redis.sync(),
            ScriptOutputType.INTEGER,
            new String[] {RedisKeys.slots(app)},
            Integer.toString(slot),
            instanceId);
    return removed != null && removed == 1L;
  }

  /** Unexpired leases as raw JSON, with the lease clock's time of the read. */
  public record RawLeases(long nowMs, List<String> json) {}

  public RawLeases liveLeases(String app) {
    List<Object> reply =
        live.eval(redis.sync(), ScriptOutputType.MULTI, new String[] {RedisKeys.slots(app)});
    List<String> leases = new ArrayList<>(reply.size());
    for (int i = 1; i < reply.size(); i++) {
      leases.add((String) reply.get(i));
    }
    return new RawLeases((Long) reply.get(0), leases);
  }

  public static SlotInfo parse(String json) {
    try {
      JsonNode node = JSON.readTree(json);
      List<String> handlers = new ArrayList<>();
      // Redis's cjson writes an empty array as {}; both mean "no handlers".
      node.path("handlers").forEach(h -> handlers.add(h.asText()));
      // Absent (an older executor) and cjson's {} for an empty table both give no entries.
      Map<String, Long> progress = new HashMap<>();
      for (Map.Entry<String, JsonNode> e : node.path("progress").properties()) {
        if (e.getValue().isNumber()) {
          progress.put(e.getKey(), e.getValue().asLong());
        }
      }
      return new SlotInfo(
          node.path("instanceId").asText(),
          node.path("host").asText(),
          handlers,
          node.path("slot").asInt(-1),
          node.path("lastRenewalMs").asLong(),
          node.path("expiresMs").asLong(),
          node.path("busy").asBoolean(),
          progress);
    } catch (JsonProcessingException e) {
      throw new KairosException("unreadable slot lease: " + json, e);
    }
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new KairosException("cannot encode " + value, e);
    }
  }
}
