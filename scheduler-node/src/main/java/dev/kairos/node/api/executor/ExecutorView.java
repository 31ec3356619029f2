package dev.kairos.node.api.executor;

import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.store.AppSettings;
import dev.kairos.protocol.slot.SlotInfo;
import java.util.List;
import java.util.TreeSet;

/**
 * The live executors of one app: the slots they hold (slot i consumes queue i of every handler
 * topic) and the handlers they serve.
 *
 * @param jobs how many jobs name the app (0 when asked for an app no job names)
 * @param description the app's description ({@code PUT /api/v1/apps/{app}}), "" when none
 * @param defaultRouting what a job of the app created without a routing gets
 */
public record ExecutorView(
    String app,
    int jobs,
    List<String> handlers,
    List<Slot> slots,
    String description,
    RoutingStrategy defaultRouting) {

  /**
   * One live slot lease.
   *
   * @param leaseAgeMs time since the last renewal, on cluster time
   * @param busy whether the executor reported itself busy at its last renewal
   */
  public record Slot(
      int slot,
      String instanceId,
      String host,
      List<String> handlers,
      long lastRenewalMs,
      long leaseAgeMs,
      long expiresMs,
      boolean busy) {}

  static ExecutorView of(
      String app, int jobs, List<SlotInfo> live, long nowMs, AppSettings settings) {
    TreeSet<String> handlers = new TreeSet<>();
    live.forEach(s -> handlers.addAll(s.handlers()));
    List<Slot> slots =
        live.stream()
            .map(
                s ->
                    new Slot(
                        s.slot(),
                        s.instanceId(),
                        s.host(),
                        s.handlers(),
                        s.lastRenewalMs(),
                        Math.max(0, nowMs - s.lastRenewalMs()),
                        s.expiresMs(),
                        s.busy()))
            .toList();
    return new ExecutorView(
        app,
        jobs,
        List.copyOf(handlers),
        slots,
        settings.description(),
        settings.effectiveRouting());
  }
}
