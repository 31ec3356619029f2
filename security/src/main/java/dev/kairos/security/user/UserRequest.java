package dev.kairos.security.user;

import dev.kairos.core.store.AppSettings;
import dev.kairos.core.validation.ValidationProblem;
import dev.kairos.security.AppScope;
import dev.kairos.security.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What an admin asks for when creating a user. {@link #toString()} leaves the password out.
 *
 * @param password at least {@value #MIN_PASSWORD} characters
 */
public record UserRequest(String username, String password, Role role, List<String> apps) {

  public static final int MIN_PASSWORD = 12;
  public static final int MAX_PASSWORD = 256;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}");

  public UserRequest {
    apps = apps == null ? List.of() : List.copyOf(apps);
  }

  /** What is wrong with this request; empty when the user may be created. */
  public List<ValidationProblem> problems() {
    List<ValidationProblem> problems = new ArrayList<>();
    if (username == null || !NAME.matcher(username).matches()) {
      problems.add(
          new ValidationProblem(
              "username",
              "must be 1-64 characters of [A-Za-z0-9_.@-], starting with a letter or digit"));
    }
    problems.addAll(passwordProblems(password));
    if (role == null || role == Role.METRICS) {
      problems.add(new ValidationProblem("role", "must be one of ADMIN, OPERATOR, VIEWER"));
    }
    if (apps.size() > AppScope.MAX_APPS) {
      problems.add(new ValidationProblem("apps", "at most " + AppScope.MAX_APPS + " apps"));
    } else if (apps.stream().anyMatch(a -> !AppSettings.isValidApp(a))) {
      problems.add(new ValidationProblem("apps", "each must be 1-64 characters of [A-Za-z0-9_.-]"));
    } else if (role == Role.ADMIN && !apps.isEmpty()) {
      problems.add(new ValidationProblem("apps", "an ADMIN is cluster-wide: no apps"));
    } else if (role == Role.OPERATOR && apps.isEmpty()) {
      problems.add(new ValidationProblem("apps", "an OPERATOR names the apps it operates"));
    }
    return problems;
  }

  /** The rules a password follows, at creation and at a change. */
  public static List<ValidationProblem> passwordProblems(String password) {
    if (password == null || password.length() < MIN_PASSWORD || password.length() > MAX_PASSWORD) {
      return List.of(
          new ValidationProblem(
              "password", "must be " + MIN_PASSWORD + "-" + MAX_PASSWORD + " characters"));
    }
    return List.of();
  }

  @Override
  public String toString() {
    return "UserRequest[" + username + ", " + role + ", " + apps + "]";
  }
}
