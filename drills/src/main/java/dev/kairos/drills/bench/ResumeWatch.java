package dev.kairos.drills.bench;

import dev.kairos.protocol.record.TriggerFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * When scheduling resumed after Redis was emptied at {@code flushMs}: the first handler start of a
 * fire that was claimed after the flush. A fire due shortly after the flush may have been claimed
 * before it and still sit in a node's in-memory wheel, so its start proves nothing; the claim time
 * ({@code claimedMs}, from the record or, once compacted, the history row) tells them apart.
 *
 * <p>Each {@link #poll} adds the stored jobs' fires due since the previous poll to the watched ones
 * and asks the ledger which of them started; a started fire is looked up once and dropped. Only the
 * thread that runs the rebuild probe calls it.
 */
final class ResumeWatch {

  private final BenchCluster cluster;
  private final ScaleStore store;
  private final long flushMs;
  private final List<String> watched = new ArrayList<>();
  private long coveredToMs;
  private long firstStartMs = -1;

  /** Watches fires due from {@code fromMs} on (a pre-read before the flush). */
  ResumeWatch(BenchCluster cluster, ScaleStore store, long flushMs, long fromMs) {
    this.cluster = cluster;
    this.store = store;
    this.flushMs = flushMs;
    this.coveredToMs = fromMs;
  }

  /** The first start found so far (epoch ms), or -1; stops looking once one is found. */
  long poll() {
    if (firstStartMs >= 0) {
      return firstStartMs;
    }
    long now = System.currentTimeMillis();
    watched.addAll(store.expectedFires(coveredToMs, now));
    coveredToMs = now;
    Map<String, Long> started =
        cluster.ledger().observe(watched, cluster.executors()).firstStartMs();
    if (started.isEmpty()) {
      return -1;
    }
    cluster
        .recordTimestamps(started.keySet(), TriggerFields.CLAIMED_MS)
        .forEach(
            (id, claimed) -> {
              Long start = started.get(id);
              if (claimed[0] != null && claimed[0] >= flushMs && start != null) {
                firstStartMs = firstStartMs < 0 ? start : Math.min(firstStartMs, start);
              }
            });
    watched.removeAll(started.keySet());
    return firstStartMs;
  }
}
