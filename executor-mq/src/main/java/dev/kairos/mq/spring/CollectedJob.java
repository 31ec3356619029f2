package dev.kairos.mq.spring;

import dev.kairos.mq.executor.JobHandler;

/**
 * A handler the starter runs, found in the application's beans: a {@link KairosJob} method, or one
 * that another module found and handed to {@link KairosJobCollector#register} (the xxl-job
 * compatibility module registers {@code @XxlJob} methods this way). Names are unique across all of
 * them.
 */
public interface CollectedJob extends JobHandler {

  /** The handler name jobs refer to. */
  String handler();

  /** Where it was declared, for error messages ({@code bean.method}). */
  String describe();

  /** Called once before the executor starts consuming. */
  default void init() throws Exception {}

  /** Called once after the executor has stopped. */
  default void destroy() throws Exception {}
}
