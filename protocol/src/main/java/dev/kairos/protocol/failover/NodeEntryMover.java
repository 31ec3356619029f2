package dev.kairos.protocol.failover;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.protocol.fence.StaleTermException;
import dev.kairos.protocol.wheel.WheelEntry;
import dev.kairos.protocol.wheel.WheelNotifier;
import io.lettuce.core.ScriptOutputType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's side of failover in Redis: moves every wheel and inflight entry of a dead node to
 * live nodes with {@code move_node_entries.lua}, fenced by the leader's term, shard by shard and
 * bounded per call. Membership decides who is dead; this class only moves.
 */
public final class NodeEntryMover {

  private static final Logger log = LoggerFactory.getLogger(NodeEntryMover.class);
  private static final LuaScript MOVE = LuaScript.load(NodeEntryMover.class, "move_node_entries");

  /** Safety stop for one shard: a script call moves up to {@code limit} entries. */
  private static final int MAX_CALLS_PER_SHARD = 10_000;

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final int limitPerCall;
  private final long eventsMaxLen;
  private final WheelNotifier notifier;
  private final Counter movedCounter;
  private final Counter staleCounter;
  private final Counter rejections;

  public NodeEntryMover(
      KairosRedis redis,
      RedisKeys keys,
      int limitPerCall,
      long eventsMaxLen,
      WheelNotifier notifier,
      MeterRegistry meters) {
    this.redis = redis;
    this.keys = keys;
    this.limitPerCall = limitPerCall;
    this.eventsMaxLen = eventsMaxLen;
    this.notifier = notifier;
    this.movedCounter = meters.counter("kairos.failover.entries.moved");
    this.staleCounter = meters.counter("kairos.failover.stale.drops");
    this.rejections = meters.counter("kairos.fence.rejections", "op", "move");
  }

  /**
   * Moves {@code deadNode}'s entries in every shard whose node set names it to {@code targets}
   * (live nodes, never the dead one), then notifies each target.
   *
   * @throws StaleTermException when a shard is fenced by a higher term: stop leading
   */
  public MoveReport moveAll(long term, String deadNode, List<String> targets, long nowMs) {
    if (targets.isEmpty()) {
      throw new KairosException("no live node to move the entries of " + deadNode + " to");
    }
    Map<String, List<WheelEntry>> moved = new HashMap<>();
    int stale = 0;
    for (int shard = 0; shard < keys.shards(); shard++) {
      if (redis.sync().sismember(RedisKeys.nodes(shard), deadNode)) {
        stale += moveShard(term, shard, deadNode, targets, nowMs, moved);
      }
    }
    moved.forEach(notifier::notifyAssigned);
    MoveReport report = new MoveReport(deadNode, moved, stale);
    if (report.movedCount() > 0 || stale > 0) {
      log.info(
          "term={} moved {} entries of dead node={} to {} ({} stale dropped)",
          term,
          report.movedCount(),
          deadNode,
          moved.keySet(),
          stale);
    }
    return report;
  }

  /**
   * Node names holding entries in any shard that are not in {@code liveNodes}: what a new leader,
   * and every leader periodically, must move (a leader killed half way through a move, or a claim
   * written to a node just swept, leaves nothing orphaned).
   */
  public Set<String> orphanedNodes(List<String> liveNodes) {
    Set<String> orphaned = new LinkedHashSet<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      for (String node : redis.sync().smembers(RedisKeys.nodes(shard))) {
        if (!liveNodes.contains(node)) {
          orphaned.add(node);
        }
      }
    }
    return orphaned;
  }

  private int moveShard(
      long term,
      int shard,
      String deadNode,
      List<String> targets,
      long nowMs,
      Map<String, List<WheelEntry>> moved) {
    String[] scriptKeys = {
      RedisKeys.fence(shard),
      RedisKeys.nodes(shard),
      RedisKeys.wheel(shard, deadNode),
      RedisKeys.inflight(shard, deadNode),
      RedisKeys.events(shard),
      RedisKeys.openTriggers(shard)
    };
    List<String> args = new ArrayList<>();
    args.add(Long.toString(term));
    args.add(Long.toString(nowMs));
    args.add(deadNode);
    args.add(Integer.toString(limitPerCall));
    args.add(RedisKeys.jobPrefix(shard));
    args.add(RedisKeys.triggerPrefix(shard));
    args.add(RedisKeys.wheel(shard, ""));
    args.add(Long.toString(eventsMaxLen));
    args.add(RedisKeys.endedPrefix(shard));
    args.add(Long.toString(RedisKeys.ENDED_BUCKET_MS));
    args.add(Integer.toString(targets.size()));
    args.addAll(targets);
    String[] argv = args.toArray(String[]::new);
    int stale = 0;
    for (int call = 0; call < MAX_CALLS_PER_SHARD; call++) {
      List<Object> reply = MOVE.eval(redis.sync(), ScriptOutputType.MULTI, scriptKeys, argv);
      if ((Long) reply.get(0) == 0L) {
        rejections.increment();
        throw new StaleTermException(term, (Long) reply.get(1), shard);
      }
      int dropped = ((Long) reply.get(2)).intValue();
      stale += dropped;
      staleCounter.increment(dropped);
      for (int i = 4; i + 2 < reply.size(); i += 3) {
        String target = (String) reply.get(i + 2);
        moved
            .computeIfAbsent(target, t -> new ArrayList<>())
            .add(
                new WheelEntry(
                    shard, (String) reply.get(i), Long.parseLong((String) reply.get(i + 1))));
        movedCounter.increment();
      }
      if ((Long) reply.get(3) == 0L) {
        return stale;
      }
    }
    throw new KairosException(
        "shard " + shard + ": entries of " + deadNode + " still left after the move limit");
  }
}
