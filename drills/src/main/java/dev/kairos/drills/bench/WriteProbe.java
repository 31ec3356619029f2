package dev.kairos.drills.bench;

import dev.kairos.drills.StartLedger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The write path under load (issue #13, "writes that stay fast under load"): {@code jobs} jobs
 * created through the import, then enabled and deleted through the batch endpoints, while a row's
 * jobs keep firing; and how the row's fires scheduled during those writes started.
 *
 * @param loadJobs the row's jobs that kept firing (fires/s for W1)
 * @param jobs jobs created, enabled and deleted
 * @param createSeconds wall time of the import calls
 * @param enableSeconds wall time of the enable calls
 * @param deleteSeconds wall time of the delete calls
 * @param expected the row's fires scheduled from the first write call to the end of the last
 * @param missed of those, fires with no start by the drain's cap
 * @param duplicates of those, fires started more than once
 * @param lateness start lateness of those that started
 */
record WriteProbe(
    int loadJobs,
    int jobs,
    double createSeconds,
    double enableSeconds,
    double deleteSeconds,
    int expected,
    int missed,
    int duplicates,
    Dist lateness) {

  /**
   * While {@code rowIds} (jobs of {@code workload}) keep firing: imports {@code count} parked jobs
   * ({@link Workload#parkedJob}, created disabled), enables them, deletes them, each through the
   * API at most {@link JobApi#MAX_BATCH} per call, and reports how the row's fires scheduled during
   * those calls started.
   */
  static WriteProbe measure(
      BenchCluster cluster, Workload workload, List<String> rowIds, int count, int row)
      throws InterruptedException {
    List<String> ids = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      ids.add("write-r" + row + "-" + i);
    }
    Map<String, Long> createdMs = cluster.createdMs(rowIds);
    long from = System.currentTimeMillis();
    long began = System.nanoTime();
    BenchCluster.chunks(ids)
        .forEach(
            call ->
                cluster
                    .api()
                    .importJobs(
                        call.stream().map(j -> Workload.parkedJob(j, cluster.app())).toList()));
    long created = System.nanoTime();
    everyCall(ids, cluster.api()::enableJobs, "enable");
    long enabled = System.nanoTime();
    everyCall(ids, cluster.api()::deleteJobs, "delete");
    long deleted = System.nanoTime();
    long to = System.currentTimeMillis();
    List<String> expected = workload.expectedFires(createdMs, from, to);
    StartLedger.Outcome outcome = cluster.drain(expected, to + RecurringRow.DRAIN_CAP.toMillis());
    List<Long> lateness = new ArrayList<>();
    outcome
        .firstStartMs()
        .forEach((trigger, start) -> lateness.add(start - StartStats.fireMs(trigger)));
    return new WriteProbe(
        rowIds.size(),
        count,
        (created - began) / 1e9,
        (enabled - created) / 1e9,
        (deleted - enabled) / 1e9,
        expected.size(),
        outcome.missed().size(),
        outcome.duplicates().size(),
        Dist.of(lateness));
  }

  /** Applies a batch call to {@code ids} in chunks; every id must be found. */
  private static void everyCall(List<String> ids, ToIntFunction<List<String>> call, String what) {
    for (List<String> chunk : BenchCluster.chunks(ids)) {
      int done = call.applyAsInt(chunk);
      if (done != chunk.size()) {
        throw new IllegalStateException(what + " found " + done + " of " + chunk.size() + " jobs");
      }
    }
  }

  static String header() {
    return "| fires/s running | jobs written | import s | enable s | delete s | fires during"
        + " the writes | missed | dup. | p50 / p99 / max ms |\n"
        + "|---|---|---|---|---|---|---|---|---|";
  }

  String line() {
    return String.format(
        "| %,d | %,d | %.2f | %.2f | %.2f | %,d | %d | %d | %s |",
        loadJobs,
        jobs,
        createSeconds,
        enableSeconds,
        deleteSeconds,
        expected,
        missed,
        duplicates,
        lateness.count() == 0
            ? "–"
            : lateness.p50() + " / " + lateness.p99() + " / " + lateness.max());
  }
}
