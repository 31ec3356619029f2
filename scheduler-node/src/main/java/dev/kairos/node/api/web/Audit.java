package dev.kairos.node.api.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * One log line per change made through the API, naming the job (MDC {@code jobId}, like every other
 * line about a job), the trigger where one was changed (MDC {@code triggerId}) and the token's
 * configured name (never the token).
 */
public final class Audit {

  private static final Logger log = LoggerFactory.getLogger("dev.kairos.node.api.audit");

  private Audit() {}

  public static void jobChanged(String jobId, String action, String detail) {
    try (MDC.MDCCloseable ignored = MDC.putCloseable("jobId", jobId)) {
      log.info(
          "job {} {} by token {}{}",
          jobId,
          action,
          caller(),
          detail.isEmpty() ? "" : ": " + detail);
    }
  }

  /** A change to one trigger, with MDC {@code jobId} and {@code triggerId}. */
  public static void triggerChanged(String jobId, String triggerId, String action, String detail) {
    try (MDC.MDCCloseable job = MDC.putCloseable("jobId", jobId);
        MDC.MDCCloseable trigger = MDC.putCloseable("triggerId", triggerId)) {
      log.info(
          "trigger {} {} by token {}{}",
          triggerId,
          action,
          caller(),
          detail.isEmpty() ? "" : ": " + detail);
    }
  }

  public static void action(String action, String detail) {
    log.info("{} by token {}{}", action, caller(), detail.isEmpty() ? "" : ": " + detail);
  }

  public static String caller() {
    Authentication auth = SecurityContextHolder.getContext().getAuthentication();
    return auth == null ? "?" : auth.getName();
  }
}
