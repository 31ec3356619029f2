package dev.kairos.builtin.spring;

import dev.kairos.builtin.http.DestinationPolicy;
import dev.kairos.builtin.http.HttpCallSettings;
import dev.kairos.builtin.script.ScriptSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The built-in handlers of an executor ({@code kairos.executor.builtin.*}). */
@ConfigurationProperties("kairos.executor.builtin")
public class BuiltinHandlersProperties {

  /** The HTTP call handler, {@code kairos.http}. */
  private final Http http = new Http();

  /** The script handler, {@code kairos.script}: off by default. */
  private final Script script = new Script();

  public Http getHttp() {
    return http;
  }

  public Script getScript() {
    return script;
  }

  /** {@code kairos.executor.builtin.http.*} */
  public static class Http {

    /** Whether this executor hosts the {@code kairos.http} handler. */
    private boolean enabled = true;

    /** Timeout of a call whose params give no {@code timeoutMs}. */
    private Duration defaultTimeout = HttpCallSettings.DEFAULT_TIMEOUT;

    /** The most bytes of a response body read and written to the run's log (0: none). */
    private int bodyLogChars = HttpCallSettings.DEFAULT_BODY_LOG_CHARS;

    /**
     * Destinations HTTP jobs may call: host names, {@code *.domain}, addresses or CIDR ranges, each
     * optionally with {@code :port}. Empty: any public address, never loopback, link-local or
     * private ones. Set: only these.
     */
    private List<String> allowedDestinations = new ArrayList<>();

    HttpCallSettings settings() {
      return new HttpCallSettings(
          defaultTimeout,
          bodyLogChars,
          allowedDestinations.isEmpty()
              ? DestinationPolicy.publicOnly()
              : DestinationPolicy.allowing(allowedDestinations));
    }

    public List<String> getAllowedDestinations() {
      return allowedDestinations;
    }

    public void setAllowedDestinations(List<String> allowedDestinations) {
      this.allowedDestinations = allowedDestinations;
    }

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getDefaultTimeout() {
      return defaultTimeout;
    }

    public void setDefaultTimeout(Duration defaultTimeout) {
      this.defaultTimeout = defaultTimeout;
    }

    public int getBodyLogChars() {
      return bodyLogChars;
    }

    public void setBodyLogChars(int bodyLogChars) {
      this.bodyLogChars = bodyLogChars;
    }
  }

  /** {@code kairos.executor.builtin.script.*} */
  public static class Script {

    /**
     * Whether script runs start on this executor. While false the {@code kairos.script} handler
     * fails every run without starting anything.
     */
    private boolean enabled = false;

    /**
     * Interpreters a script job may name, exactly as the job names them ({@code bash}, {@code
     * python3}, {@code /usr/bin/python3}); empty allows none.
     */
    private List<String> allowedInterpreters = new ArrayList<>();

    /** Where each run gets a private directory holding its script file, deleted after the run. */
    private Path workDir = ScriptSettings.DEFAULT_WORK_DIR;

    /** How long a run whose params give no {@code timeoutMs} may take. */
    private Duration defaultTimeout = ScriptSettings.DEFAULT_TIMEOUT;

    /** How long a stopped run's processes have between SIGTERM and SIGKILL. */
    private Duration killGrace = ScriptSettings.DEFAULT_KILL_GRACE;

    /** The most stdout + stderr lines of one run written to its log; the rest is counted. */
    private int maxOutputLines = ScriptSettings.DEFAULT_MAX_OUTPUT_LINES;

    ScriptSettings settings() {
      return new ScriptSettings(
          enabled, allowedInterpreters, workDir, defaultTimeout, killGrace, maxOutputLines);
    }

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public List<String> getAllowedInterpreters() {
      return allowedInterpreters;
    }

    public void setAllowedInterpreters(List<String> allowedInterpreters) {
      this.allowedInterpreters = allowedInterpreters;
    }

    public Path getWorkDir() {
      return workDir;
    }

    public void setWorkDir(Path workDir) {
      this.workDir = workDir;
    }

    public Duration getDefaultTimeout() {
      return defaultTimeout;
    }

    public void setDefaultTimeout(Duration defaultTimeout) {
      this.defaultTimeout = defaultTimeout;
    }

    public Duration getKillGrace() {
      return killGrace;
    }

    public void setKillGrace(Duration killGrace) {
      this.killGrace = killGrace;
    }

    public int getMaxOutputLines() {
      return maxOutputLines;
    }

    public void setMaxOutputLines(int maxOutputLines) {
      this.maxOutputLines = maxOutputLines;
    }
  }
}
