package dev.kairos.sync.event;

/**
 * A Redis stream entry id {@code <ms>-<seq>}. Ids of one shard's stream grow with every append, so
 * they order the changes of every job and trigger of that shard (each lives in exactly one shard).
 */
public record StreamId(long ms, long seq) implements Comparable<StreamId> {

  public static StreamId parse(String id) {
    int dash = id.indexOf('-');
    if (dash < 0) {
      return new StreamId(Long.parseLong(id), 0);
    }
    return new StreamId(
        Long.parseLong(id.substring(0, dash)), Long.parseLong(id.substring(dash + 1)));
  }

  /** The smallest id greater than this one: XTRIM MINID with it removes this entry and older. */
  public StreamId next() {
    return seq == Long.MAX_VALUE ? new StreamId(ms + 1, 0) : new StreamId(ms, seq + 1);
  }

  @Override
  public int compareTo(StreamId other) {
    int byMs = Long.compare(ms, other.ms);
    return byMs != 0 ? byMs : Long.compare(seq, other.seq);
  }

  @Override
  public String toString() {
    return ms + "-" + seq;
  }
}
