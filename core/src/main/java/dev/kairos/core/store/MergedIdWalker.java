package dev.kairos.core.store;

import dev.kairos.core.error.KairosException;
import io.lettuce.core.RedisCommandTimeoutException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Job ids of every shard in one ascending order, read lazily from each shard's sorted index: a
 * k-way merge of per-shard reads strictly after a cursor.
 *
 * <p>Each round sends one read to every shard that may still hold ids below what the caller needs,
 * all at once (one pipelined round trip), and merges what came back. An id is handed out only when
 * it is known to be the smallest one left: every shard not yet exhausted has been read at least up
 * to it. Ids spread evenly over the shards (CRC32 of the id), so a round reads about {@code 2n /
 * shards} ids per shard, at least {@value #MIN_READ}, and {@link #next(int)} is usually answered in
 * one round, sometimes two; a shard asked again in the same call is asked for twice as many, at
 * most {@value #MAX_READ}.
 *
 * <p>Not thread-safe: one walker serves one request on one thread.
 */
public final class MergedIdWalker {

  /** Fewest ids asked of one shard in a round. */
  static final int MIN_READ = 4;

  /** Most ids asked of one shard in a round. */
  static final int MAX_READ = 1000;

  /** Reads ids of one shard's range. */
  @FunctionalInterface
  public interface ShardReader {

    /**
     * Up to {@code limit} ids of {@code shard}, ascending, each strictly after {@code after}
     * ({@code null}: from the start of the range).
     */
    CompletableFuture<List<String>> read(int shard, String after, int limit);
  }

  /** Sorts before every id (ids are never empty). */
  private static final String START = "";

  private final ShardReader reader;
  private final Duration timeout;
  private final int shards;
  private final List<ArrayDeque<String>> buffers;

  /** Per shard: the last id read from it (or the cursor); meaningless once {@code done}. */
  private final String[] readThrough;

  /** Per shard: a read returned fewer ids than asked, so nothing is left after its buffer. */
  private final boolean[] done;

  private String last;
  private int rounds;
  private long idsRead;

  /**
   * @param after the cursor: only ids strictly after it are returned; {@code null} from the start
   */
  public MergedIdWalker(int shards, ShardReader reader, String after, Duration timeout) {
    if (shards < 1) {
      throw new IllegalArgumentException("shards must be >= 1 but was " + shards);
    }
    this.shards = shards;
    this.reader = Objects.requireNonNull(reader, "reader");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.buffers = new ArrayList<>(shards);
    this.readThrough = new String[shards];
    this.done = new boolean[shards];
    for (int s = 0; s < shards; s++) {
      buffers.add(new ArrayDeque<>());
      readThrough[s] = after == null ? START : after;
    }
    this.last = after;
  }

  /**
   * The next {@code n} ids in ascending order; fewer only when none are left after them.
   *
   * @throws RuntimeException Redis's own when a read fails ({@link RedisCommandTimeoutException}
   *     when it takes longer than the timeout)
   */
  public List<String> next(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1 but was " + n);
    }
    int[] asked = new int[shards];
    while (true) {
      String bound = bound();
      int known = countUpTo(bound, n);
      if (known >= n || bound == null) {
        return take(known);
      }
      // Fewer than n ids are known to be next. Every shard that may hold an id below the n-th
      // smallest one buffered (or any id, when fewer than n are buffered) must be read further.
      read(nthBuffered(n), n, asked);
    }
  }

  /** Skips {@code n} ids (offset paging); false when fewer were left. */
  public boolean skip(long n) {
    long left = n;
    while (left > 0) {
      int chunk = (int) Math.min(left, MAX_READ);
      int got = next(chunk).size();
      left -= got;
      if (got < chunk) {
        return false;
      }
    }
    return true;
  }

  /** True when every id has been returned. */
  public boolean exhausted() {
    for (int s = 0; s < shards; s++) {
      if (!done[s] || !buffers.get(s).isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /** The last id returned (or the cursor, before any): where a later walk would continue. */
  public String last() {
    return last;
  }

  /** Rounds of reads sent so far (each one round trip, every shard read at once). */
  public int rounds() {
    return rounds;
  }

  /** Ids read from the shards so far, returned or still buffered. */
  public long idsRead() {
    return idsRead;
  }

  /**
   * The highest id up to which every shard has been read, or {@code null} when every shard is
   * exhausted: no buffered id at or below it can be preceded by one not read yet.
   */
  private String bound() {
    String bound = null;
    for (int s = 0; s < shards; s++) {
      if (!done[s] && (bound == null || readThrough[s].compareTo(bound) < 0)) {
        bound = readThrough[s];
      }
    }
    return bound;
  }

  /** Buffered ids at or below {@code bound} ({@code null}: all), counted up to {@code cap}. */
  private int countUpTo(String bound, int cap) {
    int count = 0;
    for (ArrayDeque<String> buffer : buffers) {
      for (String id : buffer) {
        if (bound != null && id.compareTo(bound) > 0) {
          break;
        }
        if (++count >= cap) {
          return count;
        }
      }
    }
    return count;
  }

  /** The n-th smallest buffered id, or {@code null} when fewer are buffered. */
  private String nthBuffered(int n) {
    PriorityQueue<String> largest = new PriorityQueue<>(n + 1, Comparator.reverseOrder());
    for (ArrayDeque<String> buffer : buffers) {
      for (String id : buffer) {
        if (largest.size() < n) {
          largest.add(id);
        } else if (id.compareTo(largest.peek()) < 0) {
          largest.poll();
          largest.add(id);
        } else {
          break; // the rest of this buffer is larger still
        }
      }
    }
    return largest.size() < n ? null : largest.peek();
  }

  /** One round: every live shard read through below {@code target} is read further, at once. */
  private void read(String target, int n, int[] asked) {
    int base = Math.max(MIN_READ, (int) Math.min(MAX_READ, (2L * n + shards - 1) / shards));
    List<CompletableFuture<List<String>>> reads = new ArrayList<>(shards);
    int[] limits = new int[shards];
    for (int s = 0; s < shards; s++) {
      if (done[s] || (target != null && readThrough[s].compareTo(target) >= 0)) {
        reads.add(null);
        continue;
      }
      limits[s] = (int) Math.min(MAX_READ, (long) base << Math.min(asked[s], 20));
      asked[s]++;
      String after = readThrough[s].equals(START) ? null : readThrough[s];
      reads.add(reader.read(s, after, limits[s]));
    }
    rounds++;
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int s = 0; s < shards; s++) {
      if (reads.get(s) == null) {
        continue;
      }
      List<String> ids = await(reads.get(s), s, deadline);
      idsRead += ids.size();
      buffers.get(s).addAll(ids);
      if (ids.size() < limits[s]) {
        done[s] = true;
      } else {
        readThrough[s] = ids.get(ids.size() - 1);
      }
    }
  }

  /** Removes and returns the {@code k} smallest buffered ids, ascending. */
  private List<String> take(int k) {
    PriorityQueue<Integer> heads =
        new PriorityQueue<>(Comparator.comparing((Integer s) -> buffers.get(s).peekFirst()));
    for (int s = 0; s < shards; s++) {
      if (!buffers.get(s).isEmpty()) {
        heads.add(s);
      }
    }
    List<String> out = new ArrayList<>(k);
    while (out.size() < k && !heads.isEmpty()) {
      int s = heads.poll();
      out.add(buffers.get(s).pollFirst());
      if (!buffers.get(s).isEmpty()) {
        heads.add(s);
      }
    }
    if (!out.isEmpty()) {
      last = out.get(out.size() - 1);
    }
    return out;
  }

  private List<String> await(CompletableFuture<List<String>> read, int shard, long deadline) {
    try {
      List<String> ids = read.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      return ids == null ? List.of() : ids;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted reading the job index of shard " + shard, e);
    } catch (ExecutionException e) {
      // Redis's own exceptions (no connection, a command timeout) pass as they are: callers
      // answer them as Redis being unavailable.
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new KairosException(
          "reading the job index of shard " + shard + " failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new RedisCommandTimeoutException(
          "reading the job index of shard " + shard + " took longer than " + timeout);
    }
  }
}
