package dev.kairos.objectives;

import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmKind;
import dev.kairos.core.alarm.AlarmSink;
import dev.kairos.core.lifecycle.PeriodicTask;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Judges every job's lateness objective once per interval while this node leads, on one thread
 * named {@code kairos-objective-watch}: reads the jobs that declare one and each one's sample from
 * the history, keeps the verdicts for the metrics, and raises a {@code LATENESS_OBJECTIVE} alarm
 * when a job's verdict turns BREACHED. The alarm is raised on the transition only, and the sink
 * de-duplicates per job and window cluster-wide, so a breach that lasts alarms once and a new
 * leader re-judging an old breach does not alarm again within the window.
 *
 * <p>Only the leader judges (every node would read the same rows and raise the same alarms); a node
 * that stops leading forgets its verdicts and drops its gauges, so the series come from one node.
 */
public final class ObjectiveWatch implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ObjectiveWatch.class);

  private final LatenessHistory history;
  private final BooleanSupplier leading;
  private final AlarmSink alarms;
  private final LongSupplier clock;
  private final Duration interval;
  private final int maxJobs;
  private final Map<String, ObjectiveStatus> statuses = new ConcurrentHashMap<>();
  private final MultiGauge observed;
  private final MultiGauge threshold;
  private final MultiGauge breached;
  private final Counter passes;
  private final Counter failures;
  private final Counter raised;
  private final PeriodicTask task;

  /**
   * @param leading whether this node leads now (asked at every pass)
   * @param clock cluster time, epoch ms
   * @param maxJobs the most jobs judged per pass (in id order); more are logged once per pass
   */
  public ObjectiveWatch(
      LatenessHistory history,
      BooleanSupplier leading,
      AlarmSink alarms,
      LongSupplier clock,
      MeterRegistry meters,
      Duration interval,
      int maxJobs) {
    this.history = Objects.requireNonNull(history, "history");
    this.leading = Objects.requireNonNull(leading, "leading");
    this.alarms = Objects.requireNonNull(alarms, "alarms");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.interval = Objects.requireNonNull(interval, "interval");
    if (interval.toMillis() < 1 || maxJobs < 1) {
      throw new IllegalArgumentException("interval and maxJobs must be positive");
    }
    this.maxJobs = maxJobs;
    observed =
        MultiGauge.builder("kairos.objective.lateness.observed")
            .description("the objective's percentile of start lateness over its window (leader)")
            .baseUnit("milliseconds")
            .register(meters);
    threshold =
        MultiGauge.builder("kairos.objective.lateness.threshold")
            .description("the lateness the objective allows its percentile (leader)")
            .baseUnit("milliseconds")
            .register(meters);
    breached =
        MultiGauge.builder("kairos.objective.breached")
            .description("1 while the job's start-lateness objective is breached (leader)")
            .register(meters);
    passes = meters.counter("kairos.objective.passes");
    failures = meters.counter("kairos.objective.errors");
    raised = meters.counter("kairos.objective.alarms");
    task =
        new PeriodicTask(
            "objective watch",
            "kairos-objective-watch",
            interval,
            this::evaluate,
            e -> {
              failures.increment();
              log.warn("lateness objectives not judged this pass: {}", e.toString());
            });
  }

  public void start() {
    task.start();
    log.info("objective watch started interval={}ms maxJobs={}", interval.toMillis(), maxJobs);
  }

  /** One pass: judges every objective when leading, forgets them otherwise. */
  public void evaluate() {
    if (!leading.getAsBoolean()) {
      if (!statuses.isEmpty()) {
        statuses.clear();
        publish();
      }
      return;
    }
    List<JobObjective> jobs = history.objectives(maxJobs + 1);
    if (jobs.size() > maxJobs) {
      log.warn(
          "more than {} jobs declare a lateness objective; the rest are not judged"
              + " (kairos.objectives.max-jobs)",
          maxJobs);
      jobs = jobs.subList(0, maxJobs);
    }
    long now = clock.getAsLong();
    Map<String, ObjectiveStatus> next = new LinkedHashMap<>();
    for (JobObjective job : jobs) {
      ObjectiveStatus status =
          ObjectiveStatus.judge(job, history.sample(job.jobId(), job.objective(), now), now);
      next.put(job.jobId(), status);
      ObjectiveStatus before = statuses.get(job.jobId());
      if (status.breached() && (before == null || !before.breached())) {
        alarm(status);
      } else if (!status.breached() && before != null && before.breached()) {
        withJob(
            status.jobId(),
            () -> log.info("lateness objective met again: {}", status.objective().describe()));
      }
    }
    statuses.keySet().retainAll(next.keySet());
    statuses.putAll(next);
    passes.increment();
    publish();
  }

  private void alarm(ObjectiveStatus status) {
    String observedText =
        status.sample().observedMs().isPresent()
            ? status.sample().observedMs().getAsLong() + " ms"
            : "a fire that never started";
    Map<String, String> details = new LinkedHashMap<>();
    details.put("jobId", status.jobId());
    details.put("app", status.job().app());
    details.put("objective", status.objective().describe());
    details.put("observed", observedText);
    details.put("fires", Long.toString(status.sample().fires()));
    details.put("neverStarted", Long.toString(status.sample().neverStarted()));
    String title =
        "job "
            + status.jobId()
            + " misses its start-lateness objective "
            + status.objective().describe()
            + ": observed "
            + observedText;
    withJob(status.jobId(), () -> log.warn("{}", title));
    Alarm alarm =
        new Alarm(
            AlarmKind.LATENESS_OBJECTIVE,
            status.jobId(),
            title,
            details,
            status.evaluatedMs(),
            status.job().recipients());
    if (alarms.raise(alarm)) {
      raised.increment();
    }
  }

  private void publish() {
    List<MultiGauge.Row<?>> observedRows = new ArrayList<>();
    List<MultiGauge.Row<?>> thresholdRows = new ArrayList<>();
    List<MultiGauge.Row<?>> breachedRows = new ArrayList<>();
    for (ObjectiveStatus s : statuses.values()) {
      Tags tags = Tags.of("job", s.jobId(), "app", s.job().app());
      s.sample().observedMs().ifPresent(v -> observedRows.add(MultiGauge.Row.of(tags, v)));
      thresholdRows.add(MultiGauge.Row.of(tags, s.objective().thresholdMs()));
      breachedRows.add(MultiGauge.Row.of(tags, s.breached() ? 1 : 0));
    }
    observed.register(observedRows, true);
    threshold.register(thresholdRows, true);
    breached.register(breachedRows, true);
  }

  /** The last verdict of a job's objective, while this node leads. */
  public Optional<ObjectiveStatus> status(String jobId) {
    return Optional.ofNullable(statuses.get(jobId));
  }

  /** Every verdict of the last pass, while this node leads. */
  public Map<String, ObjectiveStatus> statuses() {
    return Map.copyOf(statuses);
  }

  private static void withJob(String jobId, Runnable action) {
    MDC.put("jobId", jobId);
    try {
      action.run();
    } finally {
      MDC.remove("jobId");
    }
  }

  @Override
  public void close() {
    task.close();
  }
}
