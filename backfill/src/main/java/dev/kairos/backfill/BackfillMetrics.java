package dev.kairos.backfill;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What an operator watches of the backfills driven by this node while it leads ({@code
 * kairos.backfill.*}); the number of active backfills is a gauge the node registers over the store.
 */
public final class BackfillMetrics {

  final Counter submitted;
  final Counter succeeded;
  final Counter failed;
  final Counter finished;
  final Counter errors;

  public BackfillMetrics(MeterRegistry registry) {
    submitted =
        Counter.builder("kairos.backfill.fires.submitted")
            .description(
                "Backfill fires submitted as ad-hoc triggers (a re-submission counts once)")
            .register(registry);
    succeeded = ended(registry, "success");
    failed = ended(registry, "failure");
    finished =
        Counter.builder("kairos.backfill.finished")
            .description("Backfills that ended SUCCEEDED or FAILED")
            .register(registry);
    errors =
        Counter.builder("kairos.backfill.errors")
            .description("Driver steps that failed (the driver keeps running; the step is retried)")
            .register(registry);
  }

  private static Counter ended(MeterRegistry registry, String outcome) {
    return Counter.builder("kairos.backfill.fires.ended")
        .description("Backfill fires whose chain ended (after its final retry), by outcome")
        .tag("outcome", outcome)
        .register(registry);
  }
}
