package dev.kairos.core.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/**
 * The requests of one script call, split into one section per shard (ascending): a script that
 * takes shard sections carries every shard's group in one call on a single Redis server, where
 * per-shard calls would each carry about one fire. Replies come back in section order; {@link
 * #inRequestOrder} puts them back in the order of the requests. Immutable.
 *
 * @param <R> one request
 */
public final class ShardSections<R> {

  private final int[] shards;
  private final List<List<R>> groups;
  private final int[] requestIndex;

  private ShardSections(int[] shards, List<List<R>> groups, int[] requestIndex) {
    this.shards = shards;
    this.groups = groups;
    this.requestIndex = requestIndex;
  }

  /** Splits {@code requests} by {@code shardOf}, keeping their order within a shard. */
  public static <R> ShardSections<R> of(List<R> requests, ToIntFunction<R> shardOf) {
    TreeMap<Integer, List<Integer>> byShard = new TreeMap<>();
    for (int i = 0; i < requests.size(); i++) {
      byShard.computeIfAbsent(shardOf.applyAsInt(requests.get(i)), s -> new ArrayList<>()).add(i);
    }
    int[] shards = new int[byShard.size()];
    List<List<R>> groups = new ArrayList<>(byShard.size());
    int[] requestIndex = new int[requests.size()];
    int section = 0;
    int k = 0;
    for (var entry : byShard.entrySet()) {
      shards[section++] = entry.getKey();
      List<R> group = new ArrayList<>(entry.getValue().size());
      for (int i : entry.getValue()) {
        group.add(requests.get(i));
        requestIndex[k++] = i;
      }
      groups.add(List.copyOf(group));
    }
    return new ShardSections<>(shards, List.copyOf(groups), requestIndex);
  }

  /** How many shards (sections). */
  public int size() {
    return shards.length;
  }

  /** The shard of section {@code g} (0-based). */
  public int shard(int g) {
    return shards[g];
  }

  /** The requests of section {@code g}, in request order. */
  public List<R> group(int g) {
    return groups.get(g);
  }

  /**
   * One reply per request, given in section order (section 0's requests first), put back in the
   * order of the requests.
   */
  public <A> List<A> inRequestOrder(List<A> inSectionOrder) {
    if (inSectionOrder.size() != requestIndex.length) {
      throw new IllegalArgumentException(
          "expected "
              + requestIndex.length
              + " replies, one per request, but got "
              + inSectionOrder.size());
    }
    List<A> out = new ArrayList<>(requestIndex.length);
    for (int i = 0; i < requestIndex.length; i++) {
      out.add(null);
    }
    for (int k = 0; k < requestIndex.length; k++) {
      out.set(requestIndex[k], inSectionOrder.get(k));
    }
    return out;
  }
}
