package dev.kairos.node.lifecycle.guard;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;

/** Counters of the lost-trigger monitor, registered once per node (terms come and go). */
final class GuardMeters {

  final Counter lost;
  final Counter cancelled;
  final Counter redispatched;
  final Counter expired;
  final Counter noExecutor;
  final Counter noLiveSlot;
  final Counter backlogged;
  final Counter publishFailures;
  final Counter pageLimit;
  final Counter passes;
  final Counter errors;
  final Counter backOffs;

  /** The pause before the next pass, ms: the interval, or longer after a pass over a backlog. */
  final AtomicLong passDelayMs = new AtomicLong();

  GuardMeters(MeterRegistry registry) {
    lost =
        Counter.builder("kairos.lost.marked")
            .tag("state", "LOST")
            .description("RUNNING triggers whose executor died, ended LOST")
            .register(registry);
    cancelled =
        Counter.builder("kairos.lost.marked")
            .tag("state", "CANCELLED")
            .description("RUNNING triggers whose executor died after a cancel request")
            .register(registry);
    redispatched =
        Counter.builder("kairos.lost.redispatched")
            .description("DISPATCHED triggers published again with the same trigger id")
            .register(registry);
    expired =
        Counter.builder("kairos.lost.expired")
            .description("DISPATCHED triggers that never started within the dedup window")
            .register(registry);
    noExecutor =
        Counter.builder("kairos.lost.no.executor")
            .description("DISPATCHED triggers ended NO_EXECUTOR: no live slot hosted them in time")
            .register(registry);
    noLiveSlot =
        Counter.builder("kairos.lost.no.live.slot")
            .description("DISPATCHED triggers left waiting: no live slot hosts their handler")
            .register(registry);
    backlogged =
        Counter.builder("kairos.lost.backlogged")
            .description(
                "DISPATCHED triggers past the start timeout left waiting (per pass): their slot's"
                    + " executor has not yet received them")
            .register(registry);
    publishFailures =
        Counter.builder("kairos.lost.publish.failures")
            .description("re-dispatches the broker did not acknowledge (retried next pass)")
            .register(registry);
    pageLimit =
        Counter.builder("kairos.lost.page.limit")
            .description("passes that left open triggers of a shard for the next pass")
            .register(registry);
    passes = registry.counter("kairos.lost.passes");
    errors = registry.counter("kairos.lost.errors");
    backOffs =
        Counter.builder("kairos.lost.pass.backoffs")
            .description(
                "passes that read so many open triggers that the next one waits longer than the interval")
            .register(registry);
    Gauge.builder("kairos.lost.pass.delay", passDelayMs, AtomicLong::get)
        .baseUnit("milliseconds")
        .description(
            "pause before the next lost-trigger pass: the interval, or longer after a pass over a backlog")
        .register(registry);
  }
}
