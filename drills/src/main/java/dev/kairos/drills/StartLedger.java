package dev.kairos.drills;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.redis.TriggerFields;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
 *       killed between the claim and the handler's first statement (DESIGN "executor dies after
 *       start"); it counts as started, not missed.
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

    public String summary() {
      return "expected="
          + expected
          + " started="
          + firstStartMs.size()
          + " missed="
          + missed.size()
          + " duplicates="
          + duplicates.size()
          + " claimedNotLogged="
          + claimedNotLogged.size()
          + " lateness["
          + lateness()
          + "]";
    }
  }

  private static final Duration REDIS_WAIT = Duration.ofSeconds(30);

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
      for (String line : lines(executor.startLog())) {
        String[] parts = line.split(" ");
        if (parts.length != 3) {
          continue; // cannot happen with one write(2) per line; never guess
        }
        starts
            .computeIfAbsent(parts[0], k -> new ArrayList<>(1))
            .add(new Start(parts[0], Long.parseLong(parts[1]), parts[2]));
      }
    }
    return starts;
  }

  private static List<String> lines(Path file) {
    try {
      return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** The window's outcome as of now. */
  public Outcome observe(
      DrillJobs jobs, long fromMs, long toMs, Collection<DrillExecutor> executors) {
    List<String> expected = jobs.expectedTriggerIds(fromMs, toMs);
    Map<String, List<Start>> logged = readLogs(executors);
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
   * Polls until no expected fire of the window is missing a start or {@code timeout} passes, and
   * returns the last outcome: the caller asserts on it (a drill that misses fires fails with the
   * list, never hangs).
   */
  public Outcome awaitStarts(
      DrillJobs jobs,
      long fromMs,
      long toMs,
      Collection<DrillExecutor> executors,
      Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Outcome outcome = observe(jobs, fromMs, toMs, executors);
      if (outcome.missed().isEmpty() || System.nanoTime() - deadline > 0) {
        return outcome;
      }
      try {
        Thread.sleep(250);
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
    Map<String, RedisFuture<List<KeyValue<String, String>>>> futures = new LinkedHashMap<>();
    for (String id : ids) {
      String job = id.substring(0, id.lastIndexOf(':'));
      futures.put(
          id,
          redis
              .async()
              .hmget(
                  RedisKeys.trigger(keys.shardOf(job), id),
                  TriggerFields.TERM,
                  TriggerFields.CLAIMED_MS));
    }
    List<String> claimed = new ArrayList<>();
    futures.forEach(
        (id, future) -> {
          List<KeyValue<String, String>> values = await(id, future);
          if (values.get(0).hasValue()
              && values.get(1).hasValue()
              && Long.parseLong(values.get(0).getValue()) == term
              && Long.parseLong(values.get(1).getValue()) >= sinceMs) {
            claimed.add(id);
          }
        });
    return claimed;
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

  /** {@code startedMs} of the trigger records of {@code ids} that have one (pipelined reads). */
  private Map<String, Long> claimedStarts(List<String> ids) {
    Map<String, RedisFuture<List<KeyValue<String, String>>>> futures = new LinkedHashMap<>();
    for (String id : ids) {
      String job = id.substring(0, id.lastIndexOf(':'));
      futures.put(
          id,
          redis
              .async()
              .hmget(
                  RedisKeys.trigger(keys.shardOf(job), id),
                  TriggerFields.STARTED_MS,
                  TriggerFields.EXECUTOR));
    }
    Map<String, Long> started = new HashMap<>();
    for (Map.Entry<String, RedisFuture<List<KeyValue<String, String>>>> e : futures.entrySet()) {
      List<KeyValue<String, String>> values = await(e.getKey(), e.getValue());
      if (values.get(0).hasValue() && !values.get(0).getValue().isEmpty()) {
        started.put(e.getKey(), Long.parseLong(values.get(0).getValue()));
      }
    }
    return started;
  }
}
