package dev.kairos.compat.xxljob;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Settings of the {@code @XxlJob} compatibility layer ({@code kairos.compat.xxljob.*}). */
@ConfigurationProperties("kairos.compat.xxljob")
public class XxlJobCompatProperties {

  /** Default of {@link #getLogDir()}: {@code kairos-xxljob} under the JVM's temporary directory. */
  public static final Path DEFAULT_LOG_DIR =
      Path.of(System.getProperty("java.io.tmpdir"), "kairos-xxljob");

  /** Whether {@code @XxlJob} methods are registered as Kairos handlers. */
  private boolean enabled = true;

  /**
   * Where a run's {@code XxlJobHelper.log} lines are written while it runs (xxl-job-core writes
   * them to a file only); each file is read into the run's log and deleted when the method returns.
   */
  private Path logDir = DEFAULT_LOG_DIR;

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Path getLogDir() {
    return logDir;
  }

  public void setLogDir(Path logDir) {
    this.logDir = logDir;
  }
}
