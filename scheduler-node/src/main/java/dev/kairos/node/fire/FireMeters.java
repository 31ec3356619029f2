package dev.kairos.node.fire;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/** The fire path's meters, all tagged with the node name. */
final class FireMeters {

  final Counter dispatched;
  final Counter noExecutor;
  final Counter noExecutorWaits;
  final Counter sendFailures;
  final Counter sendRetries;
  final Counter ackMissed;
  final Counter ackErrors;
  final Counter takeErrors;
  final Counter takeCalls;
  final Counter reconcileAdded;
  final Counter loopErrors;
  final Counter windowOverflow;
  final Timer lateness;

  FireMeters(MeterRegistry meters, String node) {
    dispatched =
        Counter.builder("kairos.fires.dispatched")
            .description("triggers the broker acknowledged and Redis recorded as DISPATCHED")
            .tag("node", node)
            .register(meters);
    noExecutor =
        Counter.builder("kairos.fires.no.executor")
            .description("triggers ended NO_EXECUTOR: no live slot of the app hosts the handler")
            .tag("node", node)
            .register(meters);
    noExecutorWaits =
        Counter.builder("kairos.fires.no.executor.waits")
            .description("routings that found no live slot and waited for one (no-executor grace)")
            .tag("node", node)
            .register(meters);
    sendFailures =
        Counter.builder("kairos.fires.send.failures")
            .description("sends that failed or timed out; the entry stays inflight and is re-sent")
            .tag("node", node)
            .register(meters);
    sendRetries =
        Counter.builder("kairos.fires.send.retries")
            .description("failed sends tried again in memory after a short back-off")
            .tag("node", node)
            .register(meters);
    ackMissed =
        Counter.builder("kairos.fires.ack.missed")
            .description("acknowledged sends whose inflight entry was gone (moved by the leader)")
            .tag("node", node)
            .register(meters);
    ackErrors =
        Counter.builder("kairos.fires.ack.errors")
            .description("acknowledged sends not recorded in Redis; the entry is re-sent")
            .tag("node", node)
            .register(meters);
    takeErrors =
        Counter.builder("kairos.fires.take.errors")
            .description("take_due calls that failed; the reconcile loop re-reads the entries")
            .tag("node", node)
            .register(meters);
    takeCalls =
        Counter.builder("kairos.fires.take.calls")
            .description(
                "take_due calls; under load the batches of a shard that queued behind the calls in"
                    + " flight share one")
            .tag("node", node)
            .register(meters);
    reconcileAdded =
        Counter.builder("kairos.wheel.reconcile.added")
            .description("persisted wheel entries the in-memory wheel did not hold")
            .tag("node", node)
            .register(meters);
    loopErrors =
        Counter.builder("kairos.fire.loop.errors")
            .description("failed reconcile or inflight sweep rounds (the loops keep running)")
            .tag("node", node)
            .register(meters);
    windowOverflow =
        Counter.builder("kairos.fires.window.overflow")
            .description(
                "sends left to the inflight sweeper: send window queue full, or waited too long")
            .tag("node", node)
            .register(meters);
    lateness =
        Timer.builder("kairos.fires.dispatch.lateness")
            .description("cluster time at send minus the scheduled fire time")
            .tag("node", node)
            .publishPercentiles(0.5, 0.99)
            .register(meters);
  }
}
