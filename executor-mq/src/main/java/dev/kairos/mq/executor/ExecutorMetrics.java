package dev.kairos.mq.executor;

import dev.kairos.mq.log.TriggerLogShipper;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * Publishes a {@link KairosExecutor}'s counters to Micrometer. The meters read the executor's
 * counters when scraped, so binding costs nothing on the hot path.
 *
 * <ul>
 *   <li>{@code kairos.executor.triggers{app, handler, outcome}}: outcome is one of {@code started},
 *       {@code duplicate} (a copy not run because the trigger had started), {@code expired}, {@code
 *       discarded}, {@code succeeded}, {@code failed}, {@code timed_out}, {@code dropped} (the
 *       start claim found the job deleted, disabled or rescheduled since the node sent it)
 *   <li>{@code kairos.executor.malformed.messages{app}}: bodies that could not be read
 *   <li>{@code kairos.executor.lease.lost{app}}: slot leases lost to another instance
 *   <li>{@code kairos.executor.errors{app}}: loop, Redis or broker errors survived
 *   <li>{@code kairos.executor.lease.reclaims{app}}: slots claimed again after a lost lease
 *   <li>gauges {@code kairos.executor.slot{app}} (-1 before the first claim), {@code
 *       kairos.executor.consuming{app}} (1 while taking work), {@code
 *       kairos.executor.lease.remaining{app}} and {@code kairos.executor.lease.age{app}} (seconds:
 *       trust left, and time since the last successful renewal), {@code
 *       kairos.executor.running{app}} (handler runs in progress), {@code kairos.executor.held{app}}
 *       (triggers received ahead of their fire time, waiting for it)
 * </ul>
 */
public final class ExecutorMetrics implements MeterBinder {

  private final KairosExecutor executor;

  public ExecutorMetrics(KairosExecutor executor) {
    this.executor = executor;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    String app = executor.settings().lease().app();
    for (String handler : executor.settings().lease().handlers()) {
      Tags tags = Tags.of("app", app, "handler", handler);
      perHandler(registry, tags, handler, "started", ExecutorStats::started);
      perHandler(registry, tags, handler, "duplicate", ExecutorStats::duplicates);
      perHandler(registry, tags, handler, "expired", ExecutorStats::expired);
      perHandler(registry, tags, handler, "dropped", ExecutorStats::dropped);
      perHandler(registry, tags, handler, "discarded", ExecutorStats::discarded);
      perHandler(registry, tags, handler, "succeeded", ExecutorStats::succeeded);
      perHandler(registry, tags, handler, "failed", ExecutorStats::failed);
      perHandler(registry, tags, handler, "timed_out", ExecutorStats::timedOut);
    }
    Tags tags = Tags.of("app", app);
    instance(registry, "kairos.executor.malformed.messages", tags, ExecutorStats::malformed);
    instance(registry, "kairos.executor.lease.lost", tags, ExecutorStats::leaseLost);
    instance(registry, "kairos.executor.errors", tags, ExecutorStats::errors);
    FunctionCounter.builder("kairos.executor.cancelled", executor, KairosExecutor::cancelledRuns)
        .tags(tags)
        .description("Runs interrupted and recorded CANCELLED on an operator's request")
        .register(registry);
    FunctionCounter.builder("kairos.executor.lease.reclaims", executor, KairosExecutor::reclaims)
        .tags(tags)
        .description("slots claimed again after the lease was lost")
        .register(registry);
    Gauge.builder("kairos.executor.slot", executor, e -> e.health().slot())
        .tags(tags)
        .description("slot held by this instance, -1 before the first claim")
        .register(registry);
    Gauge.builder("kairos.executor.consuming", executor, e -> e.isConsuming() ? 1 : 0)
        .tags(tags)
        .description("1 while the instance takes work from its slot's queues")
        .register(registry);
    TimeGauge.builder(
            "kairos.executor.lease.remaining",
            executor,
            TimeUnit.MILLISECONDS,
            e -> e.health().leaseRemaining().toMillis())
        .tags(tags)
        .description("trust left in the slot lease before the local deadline")
        .register(registry);
    TimeGauge.builder(
            "kairos.executor.lease.age",
            executor,
            TimeUnit.MILLISECONDS,
            e -> e.health().sinceRenewal().toMillis())
        .tags(tags)
        .description("time since the last successful lease claim or renewal")
        .register(registry);
    Gauge.builder("kairos.executor.running", executor, e -> e.health().running())
        .tags(tags)
        .description("handler runs in progress")
        .register(registry);
    Gauge.builder("kairos.executor.held", executor, KairosExecutor::heldDeliveries)
        .tags(tags)
        .description("triggers received ahead of their fire time (pre-dispatch), waiting for it")
        .register(registry);
    logLines(registry, tags, "shipped", TriggerLogShipper::shippedLines);
    logLines(registry, tags, "lost", TriggerLogShipper::lostLines);
    logLines(registry, tags, "capped", TriggerLogShipper::cappedLines);
    FunctionCounter.builder(
            "kairos.executor.log.calls", executor, e -> logValue(e, TriggerLogShipper::calls))
        .tags(tags)
        .description("script calls that shipped handler log lines to Redis")
        .register(registry);
  }

  private void logLines(
      MeterRegistry registry, Tags tags, String outcome, ToLongFunction<TriggerLogShipper> value) {
    FunctionCounter.builder("kairos.executor.log.lines", executor, e -> logValue(e, value))
        .tags(tags.and("outcome", outcome))
        .description(
            "handler log lines: shipped to Redis, lost (Redis refused the batch), capped (over a"
                + " trigger's caps)")
        .register(registry);
  }

  private static double logValue(KairosExecutor e, ToLongFunction<TriggerLogShipper> value) {
    TriggerLogShipper shipper = e.logShipper();
    return shipper == null ? 0 : value.applyAsLong(shipper);
  }

  private void perHandler(
      MeterRegistry registry,
      Tags tags,
      String handler,
      String outcome,
      ToLongFunction<ExecutorStats> value) {
    FunctionCounter.builder(
            "kairos.executor.triggers", executor, e -> value.applyAsLong(e.stats(handler)))
        .tags(tags.and("outcome", outcome))
        .description("Deliveries of triggers by what became of them")
        .register(registry);
  }

  private void instance(
      MeterRegistry registry, String name, Tags tags, ToLongFunction<ExecutorStats> value) {
    FunctionCounter.builder(name, executor, e -> value.applyAsLong(e.stats()))
        .tags(tags)
        .register(registry);
  }
}
