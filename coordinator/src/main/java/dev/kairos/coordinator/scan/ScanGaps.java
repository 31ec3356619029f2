package dev.kairos.coordinator.scan;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How long each shard went unscanned before the current pass: the lateness the scheduler itself
 * caused, which is forgiven before a fire is judged misfired (a fire is no misfire of its job's
 * because the cluster was failing over, or Redis or ZooKeeper was away). Forgiven: the time since
 * the shard's last complete pass in this leader term, at most {@code graceMs}; the whole grace in a
 * term's first pass of the shard, since a new leader cannot know how long the gap before it was. In
 * steady state that is one scan interval, which only widens the threshold by it: fires are claimed
 * ahead of their time there, so only gaps make them late.
 */
final class ScanGaps {

  private final long graceMs;
  private final AtomicLongArray lastCompleteMs;
  private long term = Long.MIN_VALUE;

  ScanGaps(int shards, long graceMs) {
    this.graceMs = graceMs;
    this.lastCompleteMs = new AtomicLongArray(shards);
  }

  /** Called before every pass: a new term forgets what the shards' passes were. */
  synchronized void beginPass(long passTerm) {
    if (passTerm != term) {
      term = passTerm;
      for (int shard = 0; shard < lastCompleteMs.length(); shard++) {
        lastCompleteMs.set(shard, 0);
      }
    }
  }

  /** The lateness forgiven to fires of {@code shard} found by a pass at {@code nowMs}. */
  long forgivenMs(int shard, long nowMs) {
    long last = lastCompleteMs.get(shard);
    return last == 0 ? graceMs : Math.min(Math.max(0, nowMs - last), graceMs);
  }

  /**
   * Every shard counts as scanned at {@code nowMs}: a pass skipped because an operator paused
   * scheduling is no gap to forgive, so what came due meanwhile follows the misfire rule.
   */
  void completedAll(long nowMs) {
    for (int shard = 0; shard < lastCompleteMs.length(); shard++) {
      completed(shard, nowMs);
    }
  }

  /** The shard's pass that began at {@code passNowMs} claimed everything it found. */
  void completed(int shard, long passNowMs) {
    lastCompleteMs.accumulateAndGet(shard, passNowMs, Math::max);
  }
}
