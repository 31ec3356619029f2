package dev.kairos.node.result;

import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.start.CompletionOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Map;

/** The result consumer's meters, tagged with the node name. */
final class ResultMeters {

  private final Map<ResultStatus, Counter> byStatus = new EnumMap<>(ResultStatus.class);
  private final Map<CompletionOutcome.Kind, Counter> byOutcome =
      new EnumMap<>(CompletionOutcome.Kind.class);
  final Counter malformed;
  final Counter stale;
  final Counter errors;
  final Timer runDuration;
  final Timer lag;

  ResultMeters(MeterRegistry meters, String node) {
    for (ResultStatus status : ResultStatus.values()) {
      byStatus.put(
          status,
          Counter.builder("kairos.results")
              .description("results consumed from kairos_results, by the status reported")
              .tag("node", node)
              .tag("status", status.name())
              .register(meters));
    }
    for (CompletionOutcome.Kind kind : CompletionOutcome.Kind.values()) {
      byOutcome.put(
          kind,
          Counter.builder("kairos.results.records")
              .description(
                  "what completing the trigger record did: ALREADY = the executor's own write had"
                      + " landed; COMPLETED/RECREATED = this node repaired it (safety net)")
              .tag("node", node)
              .tag("outcome", kind.name())
              .register(meters));
    }
    malformed =
        Counter.builder("kairos.results.malformed")
            .description("result messages that could not be read (skipped)")
            .tag("node", node)
            .register(meters);
    stale =
        Counter.builder("kairos.results.stale")
            .description("results that ended more than the dedup window ago (record not touched)")
            .tag("node", node)
            .register(meters);
    errors =
        Counter.builder("kairos.results.errors")
            .description("batches whose records could not be written; redelivered by the broker")
            .tag("node", node)
            .register(meters);
    runDuration =
        Timer.builder("kairos.results.run.duration")
            .description("handler run time reported by executors (end - start)")
            .tag("node", node)
            .publishPercentileHistogram()
            .register(meters);
    lag =
        Timer.builder("kairos.results.lag")
            .description(
                "cluster time when the node handled a result minus the executor's end time"
                    + " (includes clock skew between the executor and the cluster)")
            .tag("node", node)
            .publishPercentiles(0.5, 0.99)
            .register(meters);
  }

  void status(ResultStatus status) {
    byStatus.get(status).increment();
  }

  void outcome(CompletionOutcome.Kind kind) {
    byOutcome.get(kind).increment();
  }
}
