package dev.kairos.core.store;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.JobHash;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.validation.JobValidationException;
import dev.kairos.core.validation.ValidationProblem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Rejects a save whose child list would close a cycle through the stored jobs: a breadth-first walk
 * over the stored jobs' {@code childJobIds}, one pipelined round of HGETs per level, from the saved
 * job's children back to the job itself.
 *
 * <p>Two concurrent saves can together form a cycle that neither saw (A→B saved while B→A is
 * saved). The store does not lock the graph for that race; the lifecycle bounds it at trigger time
 * instead: a child trigger carries its chain depth and the chain stops at a fixed depth, so such a
 * cycle costs a bounded number of runs and an alarm, never an endless loop.
 */
final class ChildCycleCheck {

  /** A child graph bigger than this is not walked further; the trigger-time bound still holds. */
  static final int MAX_VISITED = 10_000;

  private static final long TIMEOUT_SECONDS = 30;

  private final KairosRedis redis;
  private final RedisKeys keys;

  ChildCycleCheck(KairosRedis redis, RedisKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  /**
   * @throws JobValidationException naming the cycle when {@code jobId} is reachable from one of
   *     {@code children}; nothing has been written
   */
  void check(String jobId, List<String> children) {
    if (children.isEmpty()) {
      return;
    }
    // parent pointers double as the visited set and give the path for the message
    Map<String, String> reachedFrom = new HashMap<>();
    List<String> level = new ArrayList<>();
    for (String child : children) {
      if (reachedFrom.putIfAbsent(child, jobId) == null) {
        level.add(child);
      }
    }
    while (!level.isEmpty() && reachedFrom.size() < MAX_VISITED) {
      List<CompletableFuture<String>> reads = new ArrayList<>(level.size());
      for (String id : level) {
        reads.add(
            redis
                .async()
                .hget(RedisKeys.job(keys.shardOf(id), id), JobFields.CHILD_JOB_IDS)
                .toCompletableFuture());
      }
      List<String> next = new ArrayList<>();
      for (int i = 0; i < level.size(); i++) {
        for (String grandChild : JobHash.decodeChildren(join(reads.get(i)))) {
          if (grandChild.equals(jobId)) {
            throw cycle(jobId, path(reachedFrom, level.get(i), jobId));
          }
          if (reachedFrom.putIfAbsent(grandChild, level.get(i)) == null) {
            next.add(grandChild);
          }
        }
      }
      level = next;
    }
  }

  private static String path(Map<String, String> reachedFrom, String last, String jobId) {
    List<String> reversed = new ArrayList<>();
    for (String at = last; !at.equals(jobId); at = reachedFrom.get(at)) {
      reversed.add(at);
    }
    StringBuilder path = new StringBuilder(jobId);
    for (int i = reversed.size() - 1; i >= 0; i--) {
      path.append(" -> ").append(reversed.get(i));
    }
    return path.append(" -> ").append(jobId).toString();
  }

  private static JobValidationException cycle(String jobId, String path) {
    return new JobValidationException(
        jobId,
        List.of(new ValidationProblem(JobFields.CHILD_JOB_IDS, "would form a cycle: " + path)));
  }

  private static String join(CompletableFuture<String> read) {
    try {
      return read.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted while checking child jobs", e);
    } catch (Exception e) {
      throw new KairosException("cannot check child jobs for cycles", e);
    }
  }
}
