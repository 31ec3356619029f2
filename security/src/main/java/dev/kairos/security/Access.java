package dev.kairos.security;

import java.util.Objects;

/**
 * What the caller of one request may do: its role, limited to its apps. The API asks this before
 * every read or write of something that belongs to an app; what is outside a caller's apps answers
 * as if it did not exist.
 */
public record Access(Role role, AppScope scope) {

  public Access {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(scope, "scope");
  }

  /** Reads of {@code app}'s jobs, triggers, executors and settings. */
  public boolean canRead(String app) {
    return role != Role.METRICS && scope.allows(app);
  }

  /** Writes to {@code app}'s jobs, triggers and settings. */
  public boolean canWrite(String app) {
    return (role == Role.ADMIN || role == Role.OPERATOR) && scope.allows(app);
  }

  /** Cluster-wide operations: pause, rebuild, drain, tokens, actuator, the xxl-job importer. */
  public boolean isAdmin() {
    return role == Role.ADMIN;
  }

  /** Whether every app is visible (no list needs filtering). */
  public boolean seesAllApps() {
    return scope.isAll();
  }
}
