package dev.kairos.mq.executor;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.ToLongFunction;

/**
 * Publishes a {@link KairosExecutor}'s counters to Micrometer. The meters read the executor's
 * counters when scraped, so binding costs nothing on the hot path.
 *
 * <ul>
 *   <li>{@code kairos.executor.triggers{app, handler, outcome}}: outcome is one of {@code started},
 *       {@code duplicate} (a copy not run because the trigger had started), {@code expired}, {@code
 *       discarded}, {@code succeeded}, {@code failed}, {@code timed_out}
 *   <li>{@code kairos.executor.malformed.messages{app}}: bodies that could not be read
 *   <li>{@code kairos.executor.lease.lost{app}}: slot leases lost to another instance
 *   <li>{@code kairos.executor.errors{app}}: loop, Redis or broker errors survived
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
