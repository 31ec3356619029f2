package dev.kairos.drills.bench;

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
