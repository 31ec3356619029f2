package dev.kairos.protocol.wheel;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.ScriptOutputType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The shard records of SHARDING_BROADCAST triggers taken by one node (docs/design.md "Delivery
 * contract"): the fan-out is fixed in the parent record at first dispatch ({@code
 * fan_out_broadcast.lua}), each shard {@code <parentId>#<i>/<n>} gets its own record so it starts
 * exactly once, and shards move to DISPATCHED on the broker's ack together with the parent ({@code
 * ack_broadcast.lua}): the shards enter the open-trigger index, the parent does not (it never runs
 * itself). Thread-safe.
 */
public final class BroadcastShards {

  private static final LuaScript FAN_OUT =
      LuaScript.load(BroadcastShards.class, "fan_out_broadcast");
  private static final LuaScript ACK = LuaScript.load(BroadcastShards.class, "ack_broadcast");

  /**
   * The recorded fan-out of one broadcast trigger.
   *
   * @param slots slot of shard i at index i; empty when the parent is no longer open
   * @param states state of shard i's record at index i ("" when missing)
   */
  public record FanOut(List<Integer> slots, List<String> states) {

    public FanOut {
      slots = List.copyOf(slots);
      states = List.copyOf(states);
    }

    public int total() {
      return slots.size();
    }

    /** Whether shard i still needs a send: its record is CLAIMED or DISPATCHED (or missing). */
    public boolean open(int i) {
      String s = states.get(i);
      return s.isEmpty() || s.equals("CLAIMED") || s.equals("DISPATCHED");
    }
  }

  private final KairosRedis redis;
  private final String node;

  BroadcastShards(KairosRedis redis, String node) {
    this.redis = redis;
    this.node = node;
  }

  /** The id of shard {@code index} of {@code total} of a broadcast trigger. */
  public static String shardId(String parentId, int index, int total) {
    return parentId + "#" + index + "/" + total;
  }

  /**
   * Fixes the fan-out over {@code liveSlots} unless one is recorded (then returns that one) and
   * creates the shard records.
   */
  public FanOut fanOut(int shard, String parentId, List<Integer> liveSlots, long nowMs) {
    List<Object> reply =
        FAN_OUT.eval(
            redis.sync(),
            ScriptOutputType.MULTI,
            new String[] {RedisKeys.trigger(shard, parentId)},
            parentId,
            Long.toString(nowMs),
            liveSlots.stream().map(String::valueOf).collect(Collectors.joining(",")),
            RedisKeys.triggerPrefix(shard),
            RedisKeys.jobTriggers(shard, ""),
            node);
    int total = ((Long) reply.get(0)).intValue();
    if (total == 0) {
      return new FanOut(List.of(), List.of());
    }
    List<Integer> slots =
        Arrays.stream(((String) reply.get(1)).split(",")).map(Integer::valueOf).toList();
    List<String> states = new ArrayList<>(total);
    for (int i = 0; i < total; i++) {
      states.add((String) reply.get(2 + i));
    }
    return new FanOut(slots, states);
  }

  /**
   * Records that the broker acknowledged these shards (shard trigger id → slot): they become
   * DISPATCHED and open; the parent leaves this node's inflight set and becomes DISPATCHED.
   *
   * @return false when the parent was no longer in this node's inflight set (moved by the leader)
   */
  public boolean acknowledged(
      int shard, String parentId, List<Integer> slots, Map<String, Integer> sent, long nowMs) {
    List<String> args = new ArrayList<>();
    args.add(parentId);
    args.add(Long.toString(nowMs));
    args.add(slots.stream().map(String::valueOf).collect(Collectors.joining(",")));
    args.add(RedisKeys.triggerPrefix(shard));
    sent.forEach(
        (id, slot) -> {
          args.add(id);
          args.add(Integer.toString(slot));
        });
    List<Object> reply =
        ACK.eval(
            redis.sync(),
            ScriptOutputType.MULTI,
            new String[] {
              RedisKeys.inflight(shard, node),
              RedisKeys.trigger(shard, parentId),
              RedisKeys.openTriggers(shard)
            },
            args.toArray(String[]::new));
    return (Long) reply.get(0) == 1L;
  }
}
