package dev.kairos.protocol.lost;

import java.util.List;

/**
 * What {@code redispatch_triggers.lua} accepted in one shard.
 *
 * @param accepted triggers recorded as re-dispatched: publish exactly these
 * @param expired triggers that never started within the dedup window, now EXPIRED
 * @param noExecutor triggers ended NO_EXECUTOR (target slot -1: no live executor hosts them)
 * @param skipped triggers that started or ended meanwhile (left alone)
 */
public record RedispatchResult(
    List<Redispatched> accepted, int expired, int noExecutor, int skipped) {

  public RedispatchResult {
    accepted = List.copyOf(accepted);
  }
}
