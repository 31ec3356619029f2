package dev.kairos.security;

/**
 * What an API token (configured or created at runtime) may do. ADMIN and METRICS are cluster-wide;
 * OPERATOR and VIEWER apply to the token's apps ({@link AppScope}).
 */
public enum Role {
  /** Reads and writes: jobs, batches, import, trigger now, rebuild, tokens, actuator. */
  ADMIN,
  /**
   * Reads and writes the jobs, triggers and settings of its apps (create, edit, enable, trigger,
   * cancel, import); reads the cluster's state; never pauses the cluster, rebuilds or sees tokens.
   */
  OPERATOR,
  /** Reads only (never the tokens), of its apps or of all. */
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

  /** Whether a token of this role may be limited to some apps (ADMIN and METRICS may not). */
  public boolean scopedByApp() {
    return this == OPERATOR || this == VIEWER;
  }
}
