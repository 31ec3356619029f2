package dev.kairos.core.schedule;

/**
 * Where a job goes in its shard's due ZSET after a scan.
 *
 * @param kind AT: score {@code atMs}; PARK: score +inf (FIXED_DELAY waits for its trigger to end);
 *     REMOVE: no further fire (finished one-shot, exhausted cron, API job)
 * @param atMs the new score when {@code kind == AT}, otherwise 0
 */
public record NextDue(Kind kind, long atMs) {

  public enum Kind {
    AT,
    PARK,
    REMOVE
  }

  public static final NextDue PARK = new NextDue(Kind.PARK, 0);
  public static final NextDue REMOVE = new NextDue(Kind.REMOVE, 0);

  public static NextDue at(long atMs) {
    return new NextDue(Kind.AT, atMs);
  }

  /** The ZSET score: {@code atMs}, +inf when parked, NaN when the member is to be removed. */
  public double score() {
    return switch (kind) {
      case AT -> atMs;
      case PARK -> Double.POSITIVE_INFINITY;
      case REMOVE -> Double.NaN;
    };
  }
}
