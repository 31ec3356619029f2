package dev.kairos.sync.history.read;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** The history read side ({@code kairos.history.*}). */
@ConfigurationProperties("kairos.history")
public class HistoryProperties {

  /**
   * Whether the node serves trigger search, daily reports and job statistics from PostgreSQL (needs
   * a DataSource; without one the endpoints answer 503).
   */
  private boolean enabled = true;

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }
}
