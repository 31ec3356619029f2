package dev.kairos.node.api.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * One log line per change made through the API, naming the job (MDC {@code jobId}, like every other
 * line about a job) and the token's configured name (never the token).
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

  public static void action(String action, String detail) {
    log.info("{} by token {}{}", action, caller(), detail.isEmpty() ? "" : ": " + detail);
  }

  public static String caller() {
    Authentication auth = SecurityContextHolder.getContext().getAuthentication();
    return auth == null ? "?" : auth.getName();
  }
}
