package dev.kairos.mq.executor;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The executor's {@link JobRunner}s, one per job with work on this instance; a runner leaves the
 * map when it is idle. Thread-safe: the poll thread submits, worker threads report ends.
 *
 * <p>Safety: a run reports its end to the runner that launched it ({@link Run#runner}), never to
 * whatever the map holds for the job. A launched run can end before {@link #submit} has put a new
 * runner in the map (the worker overtakes the poll thread); looking the runner up then finds
 * nothing, the end is lost, and the job's later deliveries wait behind a run that is over, for
 * good. That was seen at 500 fires/s once ends stopped waiting for Redis.
 */
final class JobRunners {

  private final Map<String, JobRunner> byJob = new ConcurrentHashMap<>();
  private final Consumer<Run> launch;
  private final Consumer<Delivery> discard;

  JobRunners(Consumer<Run> launch, Consumer<Delivery> discard) {
    this.launch = launch;
    this.discard = discard;
  }

  /** Applies the job's block strategy to a received delivery (poll thread). */
  void submit(Delivery delivery) {
    byJob.compute(
        delivery.trigger().jobId(),
        (job, runner) -> {
          JobRunner r = runner != null ? runner : new JobRunner(launch, discard);
          r.submit(delivery);
          return r;
        });
  }

  /** A launched run ended (or never started): its runner starts the job's next delivery. */
  void finished(Run run) {
    JobRunner runner = run.runner;
    runner.finished(run);
    byJob.computeIfPresent(
        run.delivery.trigger().jobId(), (job, r) -> r == runner && r.isIdle() ? null : r);
  }

  /** Jobs with a run going or deliveries waiting. */
  int busyJobs() {
    return byJob.size();
  }

  /** Deliveries waiting behind a running run of their job (SERIAL_EXECUTION). */
  int waiting() {
    return byJob.values().stream().mapToInt(JobRunner::waitingCount).sum();
  }
}
