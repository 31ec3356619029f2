package dev.kairos.drills;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.protocol.record.TriggerFields;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

/**
 * Counts handler starts per trigger id for the expected fires of a window, from two witnesses: the
 * executors' start logs (one line per handler start, see {@link StartRecorder}) and the trigger
 * records in Redis (the start claim writes {@code startedMs} and {@code executor}).
 *
 * <ul>
 *   <li><b>missed</b>: an expected fire (computed from the schedule, {@link DrillJobs}) with no
 *       start in either witness;
 *   <li><b>duplicate</b>: a trigger id whose handler started more than once (two start-log lines,
 *       in one executor or across executors);
 *   <li><b>claimed, never logged</b>: the start claim won but no line was written: an executor
 *       killed between the claim and the handler's first statement (docs/design.md "executor dies
 *       after start"); it counts as started, not missed.
 * </ul>
 */
public final class StartLedger {

  /** One handler start, as logged. */
  public record Start(String triggerId, long startMs, String instanceId) {}

  /** What a window looked like. */
  public record Outcome(
      int expected,
      List<String> missed,
      Map<String, List<Start>> duplicates,
      List<String> claimedNotLogged,
      Map<String, Long> firstStartMs) {

    /** Lateness of the first start of every started fire in the window. */
    public Lateness lateness() {
      return latenessOf(firstStartMs.keySet());
    }

    /** Lateness of the first starts of {@code triggerIds} (those that started). */
    public Lateness latenessOf(Collection<String> triggerIds) {
      List<Long> values = new ArrayList<>();
      for (String id : triggerIds) {
        Long start = firstStartMs.get(id);
        if (start != null) {
          values.add(start - fireMs(id));
        }
      }
      return Lateness.of(values);
    }

    /**
     * Fires whose first start came before their scheduled time, by this machine's clock (every
     * executor runs on it): the one thing a scheduler must never do, whatever the nodes' clocks
     * say.
     */
    public List<String> early() {
      List<String> early = new ArrayList<>();
      firstStartMs.forEach(
          (id, start) -> {
            if (start < fireMs(id)) {
              early.add(id);
            }
          });
      return early;
    }

    public String summary() {
      return "expected="
          + expected
          + " started="
          + firstStartMs.size()
          + " missed="
          + missed.size()
          + " early="
          + early().size()
          + " duplicates="
          + duplicates.size()
          + " claimedNotLogged="
          + claimedNotLogged.size()
          + " lateness["
          + lateness()
          + "]";
    }
  }

  private static final Duration REDIS_WAIT = Duration.ofSeconds(60);

  /** Reads pipelined at once: bounded, so a loaded Redis answers each batch within its timeout. */
  private static final int READ_BATCH = 500;

  private final KairosRedis redis;
  private final RedisKeys keys;

  public StartLedger(KairosRedis redis, RedisKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  /** Fire time of a scheduled trigger id {@code <jobId>:<fireMs>}. */
  static long fireMs(String triggerId) {
    return Long.parseLong(triggerId.substring(triggerId.lastIndexOf(':') + 1));
  }

  /** Every start logged by {@code executors}, by trigger id, in log order. */
  public static Map<String, List<Start>> readLogs(Collection<DrillExecutor> executors) {
    Map<String, List<Start>> starts = new HashMap<>();
    for (DrillExecutor executor : executors) {
      tail(executor.startLog()).addTo(starts, null);
    }
    return starts;
  }

  /** The starts of {@code ids} logged by {@code executors}, by trigger id, in log order. */
  static Map<String, List<Start>> readLogs(
      Collection<DrillExecutor> executors, Collection<String> ids) {
    Map<String, List<Start>> starts = new HashMap<>();
    for (DrillExecutor executor : executors) {
      tail(executor.startLog()).addTo(starts, ids);
    }
    return starts;
  }

  /**
   * Start logs read so far, by file. A start log only grows (one {@code write(2)} per line), and a
   * shared cluster's executors log hundreds of thousands of starts over many drills, so each read
   * goes on where the last one stopped instead of parsing the whole file again every second.
   */
  private static final Map<Path, LogTail> TAILS = new ConcurrentHashMap<>();

  /** Drops what was read of {@code executors}' start logs (their cluster is gone). */
  public static void forget(Collection<DrillExecutor> executors) {
    executors.forEach(e -> TAILS.remove(e.startLog().toAbsolutePath()));
  }

  private static LogTail tail(Path file) {
    LogTail tail = TAILS.computeIfAbsent(file.toAbsolutePath(), k -> new LogTail());
    tail.catchUp(file);
    return tail;
  }

  /** One start log parsed up to {@code offset}, the end of its last complete line. */
  private static final class LogTail {

    private long offset;
    private final Map<String, List<Start>> starts = new HashMap<>();

    /**
     * Adds to {@code into} the starts of {@code ids} (of every trigger id when null) parsed so far.
     */
    synchronized void addTo(Map<String, List<Start>> into, Collection<String> ids) {
      if (ids == null) {
        starts.forEach(
            (id, some) -> into.computeIfAbsent(id, k -> new ArrayList<>(1)).addAll(some));
        return;
      }
      for (String id : ids) {
        List<Start> some = starts.get(id);
        if (some != null) {
          into.computeIfAbsent(id, k -> new ArrayList<>(1)).addAll(some);
        }
      }
    }

    /** Parses the complete lines appended since the last call. */
    synchronized void catchUp(Path file) {
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
        long size = channel.size();
        if (size < offset) { // not this file any more (cannot happen: names are never reused)
          offset = 0;
          starts.clear();
        }
        if (size > offset) {
          ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(size - offset));
          while (bytes.hasRemaining() && channel.read(bytes, offset + bytes.position()) >= 0) {
            // read to the size seen; a line being written right now is taken next time
          }
          int complete = lastNewline(bytes.array(), bytes.position()) + 1;
          for (String line :
              new String(bytes.array(), 0, complete, StandardCharsets.UTF_8).split("\n")) {
            String[] parts = line.split(" ");
            if (parts.length != 3) {
              continue; // cannot happen with one write(2) per line; never guess
            }
            starts
                .computeIfAbsent(parts[0], k -> new ArrayList<>(1))
                .add(new Start(parts[0], Long.parseLong(parts[1]), parts[2]));
          }
          offset += complete;
        }
      } catch (NoSuchFileException e) {
        // not written yet: no start
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
    }

    private static int lastNewline(byte[] bytes, int length) {
      for (int i = length - 1; i >= 0; i--) {
        if (bytes[i] == '\n') {
          return i;
        }
      }
      return -1;
    }
  }

  /** The window's outcome as of now. */
  public Outcome observe(
      DrillJobs jobs, long fromMs, long toMs, Collection<DrillExecutor> executors) {
    return observe(jobs.expectedTriggerIds(fromMs, toMs), executors);
  }

  /** The outcome of an explicit set of expected trigger ids (e.g. the fires a killed node held). */
  public Outcome observe(List<String> expected, Collection<DrillExecutor> executors) {
    Map<String, List<Start>> logged = readLogs(executors, expected);
    Map<String, Long> first = new LinkedHashMap<>();
    Map<String, List<Start>> duplicates = new LinkedHashMap<>();
    List<String> notLogged = new ArrayList<>();
    for (String id : expected) {
      List<Start> starts = logged.get(id);
      if (starts == null) {
        notLogged.add(id);
        continue;
      }
      first.put(id, starts.stream().mapToLong(Start::startMs).min().orElseThrow());
      if (starts.size() > 1) {
        duplicates.put(id, starts);
      }
    }
    Map<String, Long> claimed = claimedStarts(notLogged);
    List<String> missed = new ArrayList<>();
    List<String> claimedNotLogged = new ArrayList<>();
    for (String id : notLogged) {
      Long startedMs = claimed.get(id);
      if (startedMs == null) {
        missed.add(id);
      } else {
        claimedNotLogged.add(id);
        first.put(id, startedMs);
      }
    }
    return new Outcome(expected.size(), missed, duplicates, claimedNotLogged, first);
  }

  /**
   * Polls until every expected fire of the window has a logged start, or no new start of the window
   * appeared for {@code stall} (the backlog has drained: what is still missing will not start), or
   * {@code cap} passes; returns the last outcome, on which the caller asserts. On a loaded machine
   * the executors may trail the schedule by tens of seconds: a fire still queued is late, not
   * missed, so the wait follows progress instead of a fixed deadline.
   */
  public Outcome awaitStarts(
      DrillJobs jobs,
      long fromMs,
      long toMs,
      Collection<DrillExecutor> executors,
      Duration stall,
      Duration cap) {
    long deadline = System.nanoTime() + cap.toNanos();
    long lastProgress = System.nanoTime();
    int started = -1;
    while (true) {
      Outcome outcome = observe(jobs, fromMs, toMs, executors);
      long now = System.nanoTime();
      if (outcome.firstStartMs().size() > started) {
        started = outcome.firstStartMs().size();
        lastProgress = now;
      }
      // A claim read just after the logs may belong to a handler writing its line right now: wait
      // for those lines too, or a live executor's start would be reported as claimed-not-logged.
      if ((outcome.missed().isEmpty() && outcome.claimedNotLogged().isEmpty())
          || now - lastProgress > stall.toNanos()
          || now - deadline > 0) {
        return outcome;
      }
      try {
        Thread.sleep(1_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return outcome;
      }
    }
  }

  /**
   * Trigger ids among {@code ids} whose record says they were claimed by leader term {@code term}
   * at or after {@code sinceMs} (the claim's own timestamp): what a fenced-out leader must never
   * have written.
   */
  public List<String> claimedByTermSince(Collection<String> ids, long term, long sinceMs) {
    List<String> claimed = new ArrayList<>();
    read(
        ids,
        (id, values) -> {
          if (values.get(0).hasValue()
              && values.get(1).hasValue()
              && Long.parseLong(values.get(0).getValue()) == term
              && Long.parseLong(values.get(1).getValue()) >= sinceMs) {
            claimed.add(id);
          }
        },
        TriggerFields.TERM,
        TriggerFields.CLAIMED_MS);
    return claimed;
  }

  /**
   * Lateness of the broker ack as the nodes recorded it ({@code dispatchedMs} − fire time) over
   * {@code ids} that have one: the node's share of the start lateness, the rest being the queue and
   * the executor.
   */
  public Lateness dispatchLateness(Collection<String> ids) {
    List<Long> values = new ArrayList<>();
    read(
        ids,
        (id, fields) -> {
          if (fields.get(0).hasValue() && !fields.get(0).getValue().isEmpty()) {
            values.add(Long.parseLong(fields.get(0).getValue()) - fireMs(id));
          }
        },
        TriggerFields.DISPATCHED_MS);
    return Lateness.of(values);
  }

  /**
   * The epoch-ms {@code fields} (e.g. {@link TriggerFields#DISPATCHED_MS}, {@link
   * TriggerFields#STARTED_MS}) of the trigger records of {@code ids}, in the order of {@code
   * fields}; an absent or empty field is null. Ids without a record map to an array of nulls.
   */
  public Map<String, Long[]> timestamps(Collection<String> ids, String... fields) {
    Map<String, Long[]> out = new HashMap<>();
    read(
        ids,
        (id, values) -> {
          Long[] row = new Long[fields.length];
          for (int i = 0; i < fields.length; i++) {
            KeyValue<String, String> v = values.get(i);
            row[i] = v.hasValue() && !v.getValue().isEmpty() ? Long.parseLong(v.getValue()) : null;
          }
          out.put(id, row);
        },
        fields);
    return out;
  }

  private static List<KeyValue<String, String>> await(
      String id, RedisFuture<List<KeyValue<String, String>>> future) {
    try {
      return future.get(REDIS_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading trigger records", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot read the trigger record of " + id, e);
    }
  }

  /**
   * Where the fires of {@code ids} stand in Redis, counted by their record's state, node, slot and
   * message ({@code <no record>} when the record is gone): what a drill logs for its missed fires,
   * so a miss points at the stage that lost them.
   */
  public Map<String, Integer> describe(Collection<String> ids) {
    Map<String, Integer> counts = new java.util.TreeMap<>();
    read(
        ids,
        (id, values) -> {
          String key =
              values.get(0).hasValue()
                  ? "state="
                      + values.get(0).getValue()
                      + " node="
                      + valueOf(values.get(1))
                      + " slot="
                      + valueOf(values.get(2))
                      + " attempt="
                      + valueOf(values.get(3))
                      + " message="
                      + valueOf(values.get(4))
                  : "<no record>";
          counts.merge(key, 1, Integer::sum);
        },
        TriggerFields.STATE,
        TriggerFields.NODE,
        TriggerFields.SLOT,
        TriggerFields.ATTEMPT,
        TriggerFields.MESSAGE);
    return counts;
  }

  private static String valueOf(KeyValue<String, String> value) {
    return value.hasValue() ? value.getValue() : "-";
  }

  /** {@code startedMs} of the trigger records of {@code ids} that have one. */
  private Map<String, Long> claimedStarts(List<String> ids) {
    Map<String, Long> started = new HashMap<>();
    read(
        ids,
        (id, values) -> {
          if (values.get(0).hasValue() && !values.get(0).getValue().isEmpty()) {
            started.put(id, Long.parseLong(values.get(0).getValue()));
          }
        },
        TriggerFields.STARTED_MS);
    return started;
  }

  /** HMGET of {@code fields} on the trigger record of every id, pipelined in bounded batches. */
  private void read(
      Collection<String> ids,
      BiConsumer<String, List<KeyValue<String, String>>> each,
      String... fields) {
    List<String> all = List.copyOf(ids);
    for (int from = 0; from < all.size(); from += READ_BATCH) {
      Map<String, RedisFuture<List<KeyValue<String, String>>>> futures = new LinkedHashMap<>();
      for (String id : all.subList(from, Math.min(all.size(), from + READ_BATCH))) {
        String job = id.substring(0, id.lastIndexOf(':'));
        futures.put(id, redis.async().hmget(RedisKeys.trigger(keys.shardOf(job), id), fields));
      }
      futures.forEach((id, future) -> each.accept(id, await(id, future)));
    }
  }
}
