package dev.kairos.protocol.lost;

import java.util.List;

/**
 * What {@code mark_lost.lua} did in one shard.
 *
 * @param lost triggers now LOST
 * @param cancelled triggers now CANCELLED (an operator had asked to cancel them)
 * @param skipped triggers that ended or changed executor meanwhile (left alone)
 */
public record LostResult(List<String> lost, List<String> cancelled, int skipped) {

  public LostResult {
    lost = List.copyOf(lost);
    cancelled = List.copyOf(cancelled);
  }
}
