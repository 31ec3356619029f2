package dev.kairos.node.api;

/** What an API token may do. */
public enum ApiRole {
  /** Reads and writes: jobs, batches, import, trigger now, rebuild, actuator. */
  ADMIN,
  /** Reads only. */
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
