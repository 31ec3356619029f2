package dev.kairos.coordinator.scan;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How long each shard went unscanned before the current pass: the lateness the scheduler itself
 * caused, which is forgiven before a fire is judged misfired (a fire is no misfire of its job's
 * because the cluster was failing over, or Redis or ZooKeeper was away). A complete pass at L
 * claims every fire due up to L + pre-read, so a fire the next pass finds late was due after that,
 * and all its lateness is the gap's: forgiven is the time since the shard's last complete pass in
 * this leader term beyond the pre-read, at most {@code graceMs}, and the whole grace in a term's
 * first pass of the shard, since a new leader cannot know how long the gap before it was. In steady
 * state (passes every interval, shorter than the pre-read) nothing is forgiven, so the misfire rule
 * is exactly the job's. An operator's pause is no gap.
 */
final class ScanGaps {

  private final long graceMs;
  private final long preReadMs;
  private final AtomicLongArray lastCompleteMs;
  private long term = Long.MIN_VALUE;

  ScanGaps(int shards, long graceMs, long preReadMs) {
    this.graceMs = graceMs;
    this.preReadMs = preReadMs;
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
    return last == 0 ? graceMs : Math.min(Math.max(0, nowMs - last - preReadMs), graceMs);
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
