package dev.kairos.protocol.start;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.ScriptOutputType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

/**
 * One call of {@code claim_start.lua} or {@code complete_trigger.lua} for a group of triggers that
 * may belong to several shards. The group is laid out shard by shard: KEYS holds each shard's
 * events stream and open-trigger index; ARGV the call's leading arguments, then per shard its key
 * prefixes, its trigger count and their fields. The script answers in that layout's order, and
 * {@link #run} hands the answers back in the group's order.
 *
 * @param <T> one trigger's request
 */
final class ShardedCall<T> {

  private final int[] layout; // layout position -> index in the group
  private final String[] keys;
  private final String[] args;
  private final int firstShard;

  private ShardedCall(int[] layout, String[] keys, String[] args, int firstShard) {
    this.layout = layout;
    this.keys = keys;
    this.args = args;
    this.firstShard = firstShard;
  }

  /**
   * @param shardOf the shard of a request's trigger
   * @param shardArgs a shard's prefixes, the ARGV that come before its trigger count
   * @param fields appends a request's fields to ARGV
   * @param leadingArgs the call's first ARGV (the dedup window, the events MAXLEN, ...)
   */
  static <T> ShardedCall<T> of(
      List<T> group,
      ToIntFunction<T> shardOf,
      IntFunction<List<String>> shardArgs,
      BiConsumer<T, List<String>> fields,
      String... leadingArgs) {
    if (group.isEmpty()) {
      throw new IllegalArgumentException("a script call needs at least one trigger");
    }
    Map<Integer, List<Integer>> byShard = new TreeMap<>();
    for (int i = 0; i < group.size(); i++) {
      byShard.computeIfAbsent(shardOf.applyAsInt(group.get(i)), s -> new ArrayList<>()).add(i);
    }
    List<String> keys = new ArrayList<>(2 * byShard.size());
    List<String> args = new ArrayList<>(List.of(leadingArgs));
    int[] layout = new int[group.size()];
    int next = 0;
    for (Map.Entry<Integer, List<Integer>> shard : byShard.entrySet()) {
      keys.add(RedisKeys.events(shard.getKey()));
      keys.add(RedisKeys.openTriggers(shard.getKey()));
      args.addAll(shardArgs.apply(shard.getKey()));
      args.add(Integer.toString(shard.getValue().size()));
      for (int i : shard.getValue()) {
        fields.accept(group.get(i), args);
        layout[next++] = i;
      }
    }
    return new ShardedCall<>(
        layout,
        keys.toArray(String[]::new),
        args.toArray(String[]::new),
        byShard.keySet().iterator().next());
  }

  /** The lowest shard of the call: on Redis Cluster its only one. */
  int firstShard() {
    return firstShard;
  }

  String[] keys() {
    return keys.clone();
  }

  String[] args() {
    return args.clone();
  }

  /** Runs the script; the answers, one per request, come in the group's order. */
  <R> CompletionStage<List<R>> run(
      LuaScript script, KairosRedis redis, Function<List<Object>, R> parse) {
    return script
        .<List<Object>>evalAsync(redis.async(), ScriptOutputType.MULTI, keys, args)
        .thenApply(replies -> inGroupOrder(replies, parse));
  }

  /** Puts the script's answers, in layout order, back in the group's order. */
  @SuppressWarnings("unchecked")
  <R> List<R> inGroupOrder(List<Object> replies, Function<List<Object>, R> parse) {
    if (replies.size() != layout.length) {
      throw new IllegalStateException(
          "a call of " + layout.length + " triggers got " + replies.size() + " answers");
    }
    Object[] answers = new Object[layout.length];
    for (int position = 0; position < layout.length; position++) {
      answers[layout[position]] = parse.apply((List<Object>) replies.get(position));
    }
    return (List<R>) Arrays.asList(answers);
  }
}
