package dev.kairos.mq.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a Spring bean as the code of a Kairos job handler. The method takes no argument
 * or one {@link dev.kairos.mq.executor.JobContext}, and returns {@code void} or a {@code String}
 * (the run's message, kept with its result). Returning is SUCCESS, throwing is FAIL. The method
 * should stop when its thread is interrupted (timeout, COVER_EARLY, shutdown) and be idempotent on
 * the job id and scheduled fire time.
 *
 * <pre>{@code
 * @KairosJob("sendInvoices")
 * public String sendInvoices(JobContext context) { ... }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface KairosJob {

  /** The handler name jobs refer to; unique within the application. */
  String value();

  /** A no-argument method of the same bean called once before the executor starts consuming. */
  String init() default "";

  /** A no-argument method of the same bean called once after the executor has stopped. */
  String destroy() default "";
}
