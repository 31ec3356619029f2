package dev.kairos.mq.spring;

import dev.kairos.mq.executor.JobHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

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

  /**
   * Calls a bean's method for a collected job, rethrowing what the method threw rather than the
   * reflection wrapper, so a handler's exception is the run's failure as the handler wrote it.
   */
  static Object invoke(Object bean, Method target, Object... args) throws Exception {
    try {
      return target.invoke(bean, args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception exception) {
        throw exception;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }
}
