package dev.kairos.builtin.spring;

import dev.kairos.mq.spring.CollectedJob;
import dev.kairos.mq.spring.KairosJobCollector;
import java.util.ArrayList;
import java.util.List;

/** The built-in handlers registered with the executor of this context, in registration order. */
public final class BuiltinHandlerRegistration {

  private final List<String> handlers = new ArrayList<>();

  void add(KairosJobCollector collector, CollectedJob job) {
    collector.register(job);
    handlers.add(job.handler());
  }

  /** Names of the built-in handlers this executor hosts. */
  public List<String> handlers() {
    return List.copyOf(handlers);
  }
}
