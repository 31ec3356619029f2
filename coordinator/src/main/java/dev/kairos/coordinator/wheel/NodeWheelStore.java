package dev.kairos.coordinator.wheel;

import dev.kairos.core.batch.Coalescer;
import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.redis.ShardSections;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Redis side of ONE node's persisted wheel: reads and moves only that node's own keys ({@code
 * wheel:<node>}, {@code inflight:<node>} in every shard) and the records of its triggers (DESIGN
 * "Nodes own their keys"). Thread-safe: every call is one script or read on the shared connection.
 */
public final class NodeWheelStore {

  private static final Logger log = LoggerFactory.getLogger(NodeWheelStore.class);

  private static final LuaScript TAKE_DUE = LuaScript.load(NodeWheelStore.class, "take_due");
  private static final LuaScript ACK = LuaScript.load(NodeWheelStore.class, "ack_dispatched");
  private static final LuaScript NO_EXECUTOR =
      LuaScript.load(NodeWheelStore.class, "record_no_executor");

  /** Most acks in one script call: bounds the time one call holds Redis (~5 µs per ack). */
  public static final int MAX_ACK_GROUP = 256;

  /** Ack calls of one lane in flight at once: two keep the pipeline busy while one answers. */
  static final int ACK_CALLS_PER_LANE = 2;

  private static final LuaScript REQUEUE = LuaScript.load(NodeWheelStore.class, "requeue_inflight");

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final String node;
  private final long eventsMaxLen;
  private final Duration timeout;
  private final Counter staleDrops;
  private final Counter requeued;
  private final BroadcastShards broadcastShards;
  private final Coalescer<Integer, ShardAck, Boolean> acks =
      new Coalescer<>((lane, group) -> ackGroup(group), MAX_ACK_GROUP, ACK_CALLS_PER_LANE);

  public NodeWheelStore(
      KairosRedis redis,
      RedisKeys keys,
      String node,
      long eventsMaxLen,
      Duration timeout,
      MeterRegistry meters) {
    this.redis = redis;
    this.keys = keys;
    this.node = node;
    this.eventsMaxLen = eventsMaxLen;
    this.timeout = timeout;
    this.broadcastShards = new BroadcastShards(redis, node, eventsMaxLen);
    this.staleDrops =
        Counter.builder("kairos.wheel.stale.drops")
            .description("wheel entries dropped at take time: job gone, disabled or rescheduled")
            .tag("node", node)
            .register(meters);
    this.requeued =
        Counter.builder("kairos.wheel.inflight.requeued")
            .description("inflight entries put back on the wheel to be re-sent")
            .tag("node", node)
            .register(meters);
  }

  public String node() {
    return node;
  }

  /** The cluster's shard count. */
  public int shards() {
    return keys.shards();
  }

  /** The shard records of this node's SHARDING_BROADCAST triggers. */
  public BroadcastShards broadcastShards() {
    return broadcastShards;
  }

  /**
   * The node's wheel entries due at or before {@code upToMs} in every shard, at most {@code
   * limitPerShard} per shard (the earliest), read in parallel. A node calls it at start and
   * periodically (reconcile), so a lost notification delays nothing.
   */
  public List<WheelEntry> loadWheel(long upToMs, int limitPerShard) {
    List<CompletableFuture<List<ScoredValue<String>>>> reads = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      reads.add(
          redis
              .async()
              .zrangebyscoreWithScores(
                  RedisKeys.wheel(shard, node),
                  Range.create(Double.NEGATIVE_INFINITY, (double) upToMs),
                  Limit.create(0, limitPerShard))
              .toCompletableFuture());
    }
    List<WheelEntry> entries = new ArrayList<>();
    for (int shard = 0; shard < reads.size(); shard++) {
      for (ScoredValue<String> value : await(reads.get(shard), "load wheel shard " + shard)) {
        entries.add(new WheelEntry(shard, value.getValue(), (long) value.getScore()));
      }
    }
    return entries;
  }

  /**
   * Moves this node's entries of {@code shard} due at or before {@code upToMs} (at most {@code
   * limit}) from its wheel to its inflight set and returns those still valid, with the job's
   * current dispatch fields. An entry the leader moved away is simply not there: it is not
   * returned, so this node never fires what was reassigned.
   */
  public TakeResult takeDue(int shard, long upToMs, int limit, long nowMs) {
    return await(takeDueAsync(shard, upToMs, limit, nowMs), "take due in shard " + shard);
  }

  public CompletionStage<TakeResult> takeDueAsync(int shard, long upToMs, int limit, long nowMs) {
    return takeDueCall(new int[] {shard}, new long[] {upToMs}, limit, nowMs);
  }

  /**
   * {@link #takeDueAsync} for several shards, each up to its own bound: one script call carries
   * them all on a single Redis server, one call per shard goes out in Redis Cluster (a script
   * touches one hash slot). Answers one stage per call, all in flight together.
   */
  public List<CompletionStage<TakeResult>> takeDueAsync(
      SortedMap<Integer, Long> upToByShard, int limit, long nowMs) {
    if (!redis.isCluster()) {
      int[] shards = new int[upToByShard.size()];
      long[] upTo = new long[upToByShard.size()];
      int g = 0;
      for (Map.Entry<Integer, Long> e : upToByShard.entrySet()) {
        shards[g] = e.getKey();
        upTo[g++] = e.getValue();
      }
      return List.of(takeDueCall(shards, upTo, limit, nowMs));
    }
    List<CompletionStage<TakeResult>> calls = new ArrayList<>(upToByShard.size());
    upToByShard.forEach(
        (shard, upTo) ->
            calls.add(takeDueCall(new int[] {shard}, new long[] {upTo}, limit, nowMs)));
    return calls;
  }

  private CompletionStage<TakeResult> takeDueCall(
      int[] shards, long[] upTo, int limit, long nowMs) {
    String[] scriptKeys = new String[4 * shards.length];
    String[] args = new String[3 + 3 * shards.length];
    args[0] = Integer.toString(limit);
    args[1] = Long.toString(nowMs);
    args[2] = Long.toString(eventsMaxLen);
    for (int g = 0; g < shards.length; g++) {
      int shard = shards[g];
      scriptKeys[4 * g] = RedisKeys.wheel(shard, node);
      scriptKeys[4 * g + 1] = RedisKeys.inflight(shard, node);
      scriptKeys[4 * g + 2] = RedisKeys.events(shard);
      scriptKeys[4 * g + 3] = RedisKeys.openTriggers(shard);
      args[3 + 3 * g] = Long.toString(upTo[g]);
      args[4 + 3 * g] = RedisKeys.jobPrefix(shard);
      args[5 + 3 * g] = RedisKeys.triggerPrefix(shard);
    }
    return TAKE_DUE
        .<List<Object>>evalAsync(redis.async(), ScriptOutputType.MULTI, scriptKeys, args)
        .thenApply(reply -> parseTake(shards, reply));
  }

  private TakeResult parseTake(int[] shards, List<Object> reply) {
    int stale = ((Long) reply.get(0)).intValue();
    int started = ((Long) reply.get(1)).intValue();
    List<DueTrigger> due = new ArrayList<>(reply.size() - 2);
    for (int i = 2; i < reply.size(); i++) {
      @SuppressWarnings("unchecked")
      List<Object> e = (List<Object>) reply.get(i);
      due.add(
          new DueTrigger(
              shards[((Long) e.get(10)).intValue() - 1],
              (String) e.get(0),
              (String) e.get(1),
              Long.parseLong((String) e.get(2)),
              (String) e.get(3),
              (String) e.get(4),
              (String) e.get(5),
              parseEnum(RoutingStrategy.class, (String) e.get(6), RoutingStrategy.FIRST),
              parseEnum(BlockStrategy.class, (String) e.get(7), BlockStrategy.SERIAL_EXECUTION),
              ((String) e.get(8)).isEmpty() ? 0 : Long.parseLong((String) e.get(8)),
              Integer.parseInt((String) e.get(9))));
    }
    if (stale > 0) {
      staleDrops.increment(stale);
      log.info(
          "node={} shards={} dropped {} stale wheel entries", node, Arrays.toString(shards), stale);
    }
    return new TakeResult(due, stale, started);
  }

  /**
   * The broker acknowledged the trigger's message: the entry leaves inflight and the trigger
   * becomes DISPATCHED (never regressing a later state).
   *
   * @return false when the entry was not in this node's inflight set (the leader moved it away)
   */
  public boolean ackDispatched(int shard, String triggerId, String slot, long nowMs) {
    return await(ackDispatchedAsync(shard, triggerId, slot, nowMs), "ack trigger " + triggerId);
  }

  /**
   * {@link #ackDispatched} without blocking. Acks that arrive while earlier ones of their lane are
   * in flight go together in one script call (see {@link Coalescer}; a lane is one shard in Redis
   * Cluster, every shard on a single server): under load one round trip and one script acknowledge
   * many fires, at low load an ack goes at once.
   */
  public CompletionStage<Boolean> ackDispatchedAsync(
      int shard, String triggerId, String slot, long nowMs) {
    return acks.submit(
        redis.scriptLane(shard), new ShardAck(shard, new DispatchAck(triggerId, slot, nowMs)));
  }

  /**
   * Records broker acknowledgements at once, the caller having grouped them: one script call per
   * {@link #MAX_ACK_GROUP} acks on a single Redis server, whatever their shards; per shard in Redis
   * Cluster. Answers, per ack in order, whether the entry was in this node's inflight set (false:
   * the leader moved it to another node).
   */
  public CompletionStage<List<Boolean>> ackDispatchedGroupAsync(List<ShardAck> group) {
    List<List<ShardAck>> calls = new ArrayList<>();
    if (redis.isCluster()) {
      ShardSections<ShardAck> byShard = ShardSections.of(group, ShardAck::shard);
      for (int g = 0; g < byShard.size(); g++) {
        chunk(byShard.group(g), calls);
      }
      return allInOrder(calls, answers -> byShard.inRequestOrder(answers));
    }
    chunk(group, calls);
    return allInOrder(calls, answers -> answers);
  }

  private static void chunk(List<ShardAck> acks, List<List<ShardAck>> into) {
    for (int from = 0; from < acks.size(); from += MAX_ACK_GROUP) {
      into.add(acks.subList(from, Math.min(acks.size(), from + MAX_ACK_GROUP)));
    }
  }

  private CompletionStage<List<Boolean>> allInOrder(
      List<List<ShardAck>> calls, UnaryOperator<List<Boolean>> reorder) {
    List<CompletableFuture<List<Boolean>>> parts = new ArrayList<>(calls.size());
    for (List<ShardAck> call : calls) {
      parts.add(ackGroup(call).toCompletableFuture());
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(
            done -> {
              List<Boolean> all = new ArrayList<>();
              parts.forEach(p -> all.addAll(p.join()));
              return reorder.apply(all);
            });
  }

  /** An ack and the shard of its trigger. */
  public record ShardAck(int shard, DispatchAck ack) {}

  /**
   * One broker acknowledgement to record.
   *
   * @param slot the executor slot the message was routed to ("" when not known)
   * @param ackedMs cluster time the broker acknowledged it: the record's dispatchedMs
   */
  public record DispatchAck(String triggerId, String slot, long ackedMs) {}

  /** One script call recording acks of one or more shards (one shard in Redis Cluster). */
  private CompletionStage<List<Boolean>> ackGroup(List<ShardAck> group) {
    ShardSections<ShardAck> sections = ShardSections.of(group, ShardAck::shard);
    String[] scriptKeys = new String[3 * sections.size()];
    List<String> args = new ArrayList<>(2 + 2 * sections.size() + 3 * group.size());
    long now = 0;
    args.add("");
    args.add(Long.toString(eventsMaxLen));
    for (int g = 0; g < sections.size(); g++) {
      int shard = sections.shard(g);
      scriptKeys[3 * g] = RedisKeys.inflight(shard, node);
      scriptKeys[3 * g + 1] = RedisKeys.events(shard);
      scriptKeys[3 * g + 2] = RedisKeys.openTriggers(shard);
      args.add(RedisKeys.triggerPrefix(shard));
      args.add(Integer.toString(sections.group(g).size()));
      for (ShardAck shardAck : sections.group(g)) {
        DispatchAck ack = shardAck.ack();
        now = Math.max(now, ack.ackedMs());
        args.add(ack.triggerId());
        args.add(ack.slot());
        args.add(Long.toString(ack.ackedMs()));
      }
    }
    args.set(0, Long.toString(now));
    return ACK.<List<Long>>evalAsync(
            redis.async(), ScriptOutputType.MULTI, scriptKeys, args.toArray(String[]::new))
        .thenApply(removed -> sections.inRequestOrder(removed.stream().map(r -> r == 1L).toList()));
  }

  /**
   * No executor is live for the trigger's app or handler: the trigger ends as NO_EXECUTOR (and a
   * parked FIXED_DELAY job is re-armed at now + delay).
   *
   * @return false when the entry was not in this node's inflight set (nothing written)
   */
  public boolean recordNoExecutor(
      int shard, String triggerId, String jobId, String message, long nowMs) {
    return await(
        recordNoExecutorAsync(shard, triggerId, jobId, message, nowMs),
        "record NO_EXECUTOR of " + triggerId);
  }

  /** {@link #recordNoExecutor} without blocking (pipelined with concurrent calls). */
  public CompletionStage<Boolean> recordNoExecutorAsync(
      int shard, String triggerId, String jobId, String message, long nowMs) {
    String[] scriptKeys = {
      RedisKeys.inflight(shard, node),
      RedisKeys.trigger(shard, triggerId),
      RedisKeys.events(shard),
      RedisKeys.due(shard),
      RedisKeys.job(shard, jobId),
      RedisKeys.openTriggers(shard)
    };
    return NO_EXECUTOR
        .<Long>evalAsync(
            redis.async(),
            ScriptOutputType.INTEGER,
            scriptKeys,
            triggerId,
            jobId,
            Long.toString(nowMs),
            message,
            Long.toString(eventsMaxLen))
        .thenApply(removed -> removed == 1L);
  }

  /**
   * The inflight sweeper: entries taken off the wheel at or before {@code olderThanMs} whose send
   * never completed go back on this node's wheel (same trigger id, original fire time, so they are
   * due at once), at most {@code limitPerShard} per shard.
   *
   * @return the requeued entries, for the node to put back on its in-memory wheel
   */
  public List<WheelEntry> requeueInflight(long olderThanMs, int limitPerShard) {
    List<CompletableFuture<List<Object>>> calls = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      calls.add(
          REQUEUE
              .<List<Object>>evalAsync(
                  redis.async(),
                  ScriptOutputType.MULTI,
                  new String[] {RedisKeys.inflight(shard, node), RedisKeys.wheel(shard, node)},
                  Long.toString(olderThanMs),
                  Integer.toString(limitPerShard))
              .toCompletableFuture());
    }
    List<WheelEntry> entries = new ArrayList<>();
    for (int shard = 0; shard < calls.size(); shard++) {
      List<Object> reply = await(calls.get(shard), "requeue inflight shard " + shard);
      for (int i = 0; i + 1 < reply.size(); i += 2) {
        entries.add(
            new WheelEntry(
                shard, (String) reply.get(i), Long.parseLong((String) reply.get(i + 1))));
      }
    }
    if (!entries.isEmpty()) {
      requeued.increment(entries.size());
      log.warn("node={} requeued {} inflight entries to re-send", node, entries.size());
    }
    return entries;
  }

  private static <E extends Enum<E>> E parseEnum(Class<E> type, String value, E fallback) {
    return value.isEmpty() ? fallback : Enum.valueOf(type, value);
  }

  private <T> T await(CompletionStage<T> call, String what) {
    try {
      return call.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("node " + node + ": interrupted: " + what, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new KairosException("node " + node + ": cannot " + what, e);
    }
  }
}
