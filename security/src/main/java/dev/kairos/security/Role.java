package dev.kairos.security;

/** What an API token (configured or created at runtime) may do, cluster-wide. */
public enum Role {
  /** Reads and writes: jobs, batches, import, trigger now, rebuild, tokens, actuator. */
  ADMIN,
  /** Reads only (never the tokens). */
  VIEWER,
  /**
   * Scrapes {@code /actuator/prometheus} and nothing else: what a Prometheus server holds, so a
   * leaked scrape token reads no job and changes nothing.
   */
  METRICS;

  /** The Spring Security authority of the role. */
  public String authority() {
    return "ROLE_" + name();
  }
}
