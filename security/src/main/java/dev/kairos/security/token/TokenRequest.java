package dev.kairos.security.token;

import dev.kairos.core.store.AppSettings;
import dev.kairos.core.validation.ValidationProblem;
import dev.kairos.security.AppScope;
import dev.kairos.security.Role;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What an admin asks for when creating a token. A token always expires (one that never does is the
 * one nobody remembers to revoke): {@code expiresMs} null means {@link #DEFAULT_LIFETIME} from the
 * instant it is created.
 */
public record TokenRequest(
    String name, String owner, Role role, List<String> apps, Long expiresMs) {

  public TokenRequest {
    apps = apps == null ? List.of() : List.copyOf(apps);
  }

  /** The longest a token may live; rotate rather than extend. */
  public static final Duration MAX_LIFETIME = Duration.ofDays(730);

  /** The lifetime the API gives a token whose request names no expiry. */
  public static final Duration DEFAULT_LIFETIME = Duration.ofDays(90);

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}");
  private static final int MAX_OWNER = 128;

  /** This request with its expiry fixed: the one asked for, or the default from {@code nowMs}. */
  public TokenRequest expiringFrom(long nowMs) {
    return expiresMs != null
        ? this
        : new TokenRequest(name, owner, role, apps, nowMs + DEFAULT_LIFETIME.toMillis());
  }

  /**
   * What is wrong with this request at cluster time {@code nowMs}; empty when it may be created.
   */
  public List<ValidationProblem> problems(long nowMs) {
    List<ValidationProblem> problems = new ArrayList<>();
    if (name == null || !NAME.matcher(name).matches()) {
      problems.add(
          new ValidationProblem(
              "name",
              "must be 1-64 characters of [A-Za-z0-9_.@-], starting with a letter or digit"));
    }
    if (owner == null || owner.isBlank()) {
      problems.add(new ValidationProblem("owner", "must name who answers for the token"));
    } else if (owner.length() > MAX_OWNER || owner.chars().anyMatch(Character::isISOControl)) {
      problems.add(
          new ValidationProblem(
              "owner", "must be at most " + MAX_OWNER + " characters, no control characters"));
    }
    if (role == null) {
      problems.add(
          new ValidationProblem("role", "must be one of ADMIN, OPERATOR, VIEWER, METRICS"));
    }
    if (apps.size() > AppScope.MAX_APPS) {
      problems.add(new ValidationProblem("apps", "at most " + AppScope.MAX_APPS + " apps"));
    } else if (apps.stream().anyMatch(a -> !AppSettings.isValidApp(a))) {
      problems.add(new ValidationProblem("apps", "each must be 1-64 characters of [A-Za-z0-9_.-]"));
    } else if (role != null && !role.scopedByApp() && !apps.isEmpty()) {
      problems.add(new ValidationProblem("apps", "an " + role + " token is cluster-wide: no apps"));
    } else if (role == Role.OPERATOR && apps.isEmpty()) {
      problems.add(
          new ValidationProblem(
              "apps", "an OPERATOR token names the apps it operates (an ADMIN has them all)"));
    }
    if (expiresMs == null) {
      return problems; // the default lifetime: always valid
    }
    if (expiresMs <= nowMs) {
      problems.add(new ValidationProblem("expiresAt", "must be in the future"));
    } else if (expiresMs - nowMs > MAX_LIFETIME.toMillis()) {
      problems.add(
          new ValidationProblem(
              "expiresAt", "must be at most " + MAX_LIFETIME.toDays() + " days from now"));
    }
    return problems;
  }
}
