package dev.kairos.node.api;

import dev.kairos.security.Role;
import dev.kairos.sync.history.TriggerHistoryQueries;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/** The admin REST API ({@code kairos.api.*}): who may call it and how much one call may ask. */
@Validated
@ConfigurationProperties("kairos.api")
public class ApiProperties {

  public static final DataSize DEFAULT_MAX_BODY_SIZE = DataSize.ofMegabytes(16);
  public static final int DEFAULT_PAGE_SIZE = 50;
  public static final int DEFAULT_MAX_PAGE_SIZE = 500;
  public static final int DEFAULT_MAX_BATCH_SIZE = 1000;
  public static final int DEFAULT_MAX_PREVIEW_COUNT = 100;
  public static final int DEFAULT_JOB_SCAN_BUDGET = 10_000;

  /**
   * Bearer tokens accepted by {@code /api/**} and the actuator endpoints other than health. Only
   * SHA-256 hashes are configured, so the configuration never holds a usable token. None configured
   * means every API call is refused with 401.
   */
  @Valid private List<Token> tokens = new ArrayList<>();

  /**
   * Largest request body accepted (413 beyond it). Big enough for an import of {@code
   * max-batch-size} jobs with typical parameters; one job's parameters are limited separately to 64
   * KiB.
   */
  @NotNull private DataSize maxBodySize = DEFAULT_MAX_BODY_SIZE;

  /** Page size of list endpoints when the caller gives none. */
  @Min(1)
  private int defaultPageSize = DEFAULT_PAGE_SIZE;

  /** Largest page a list endpoint returns (400 beyond it); PostgreSQL history pages cap it. */
  @Min(1)
  @Max(TriggerHistoryQueries.MAX_PAGE_SIZE)
  private int maxPageSize = DEFAULT_MAX_PAGE_SIZE;

  /** Most job ids in one batch enable/disable/delete, and most jobs in one import. */
  @Min(1)
  @Max(100_000)
  private int maxBatchSize = DEFAULT_MAX_BATCH_SIZE;

  /** Most fire times one schedule preview computes. */
  @Min(1)
  @Max(10_000)
  private int maxPreviewCount = DEFAULT_MAX_PREVIEW_COUNT;

  /**
   * Most jobs one request of the job list tests against a filter no index answers ({@code handler},
   * {@code enabled}, {@code q}); a page not full by then ends early with a cursor to continue.
   * Bounds what one request costs Redis whatever the number of jobs.
   */
  @Min(100)
  @Max(1_000_000)
  private int jobScanBudget = DEFAULT_JOB_SCAN_BUDGET;

  /**
   * Whether the node checks every shard's job indexes against the job hashes at start (one pass
   * over the indexes, in the background), not only the shards an older version left a job SET in.
   * Once, after a rolling upgrade from a version without the indexes (docs/operations.md).
   */
  private boolean verifyJobIndexAtStart = false;

  public List<Token> getTokens() {
    return tokens;
  }

  public void setTokens(List<Token> tokens) {
    this.tokens = tokens;
  }

  public DataSize getMaxBodySize() {
    return maxBodySize;
  }

  public void setMaxBodySize(DataSize maxBodySize) {
    this.maxBodySize = maxBodySize;
  }

  public int getDefaultPageSize() {
    return defaultPageSize;
  }

  public void setDefaultPageSize(int defaultPageSize) {
    this.defaultPageSize = defaultPageSize;
  }

  public int getMaxPageSize() {
    return maxPageSize;
  }

  public void setMaxPageSize(int maxPageSize) {
    this.maxPageSize = maxPageSize;
  }

  public int getMaxBatchSize() {
    return maxBatchSize;
  }

  public void setMaxBatchSize(int maxBatchSize) {
    this.maxBatchSize = maxBatchSize;
  }

  public int getMaxPreviewCount() {
    return maxPreviewCount;
  }

  public void setMaxPreviewCount(int maxPreviewCount) {
    this.maxPreviewCount = maxPreviewCount;
  }

  public int getJobScanBudget() {
    return jobScanBudget;
  }

  public void setJobScanBudget(int jobScanBudget) {
    this.jobScanBudget = jobScanBudget;
  }

  public boolean isVerifyJobIndexAtStart() {
    return verifyJobIndexAtStart;
  }

  public void setVerifyJobIndexAtStart(boolean verifyJobIndexAtStart) {
    this.verifyJobIndexAtStart = verifyJobIndexAtStart;
  }

  /** One accepted token: a name for logs, the SHA-256 of the token, and what it may do. */
  public static class Token {

    /** Shown in audit logs instead of the token (which is never logged). */
    @NotBlank private String name;

    /** Lower-case hex SHA-256 of the token: {@code printf %s "$TOKEN" | sha256sum}. */
    @NotNull
    @Pattern(regexp = "[0-9a-fA-F]{64}", message = "must be 64 hex characters (a SHA-256)")
    private String sha256;

    /**
     * {@code ADMIN} reads and writes everything; {@code OPERATOR} reads and writes its apps' jobs;
     * {@code VIEWER} only reads; {@code METRICS} only scrapes (docs/security.md).
     */
    @NotNull private Role role;

    /** The apps an OPERATOR or VIEWER token is limited to; empty: all (a VIEWER only). */
    private List<String> apps = new ArrayList<>();

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    public String getSha256() {
      return sha256;
    }

    public void setSha256(String sha256) {
      this.sha256 = sha256;
    }

    public Role getRole() {
      return role;
    }

    public void setRole(Role role) {
      this.role = role;
    }

    public List<String> getApps() {
      return apps;
    }

    public void setApps(List<String> apps) {
      this.apps = apps == null ? new ArrayList<>() : apps;
    }

    /** Whether the apps fit the role: the rule of tokens created at runtime. */
    @jakarta.validation.constraints.AssertTrue(
        message = "apps: an OPERATOR names its apps; ADMIN and METRICS tokens name none")
    public boolean isAppsFitTheRole() {
      if (role == null) {
        return true;
      }
      return role.scopedByApp() ? role != Role.OPERATOR || !apps.isEmpty() : apps.isEmpty();
    }

    @Override
    public String toString() {
      return "Token[" + name + ", " + role + (apps.isEmpty() ? "" : " of " + apps) + "]";
    }
  }
}
