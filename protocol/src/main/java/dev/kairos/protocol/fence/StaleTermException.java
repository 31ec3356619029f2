package dev.kairos.protocol.fence;

import dev.kairos.core.error.KairosException;

/**
 * A write of leader term {@code term} hit a shard fenced by the higher term {@code fence}: a newer
 * leader exists, so the writer must stop scanning and assigning at once (docs/design.md invariant
 * 5).
 */
public class StaleTermException extends KairosException {

  private final long term;
  private final long fence;

  public StaleTermException(long term, long fence) {
    this(term, fence, -1);
  }

  public StaleTermException(long term, long fence, int shard) {
    super(
        "leader term "
            + term
            + " is stale: "
            + (shard >= 0 ? "shard " + shard + " is" : "shards are")
            + " fenced by term "
            + fence);
    this.term = term;
    this.fence = fence;
  }

  public long term() {
    return term;
  }

  public long fence() {
    return fence;
  }
}
