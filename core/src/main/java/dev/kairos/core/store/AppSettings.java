package dev.kairos.core.store;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.validation.ValidationProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What an operator says about one executor app: a description, and the routing a job of the app
 * gets when it is created without one.
 *
 * @param app the app name (1-64 of {@code [A-Za-z0-9_.-]}, as jobs name it)
 * @param description free text, at most {@link #MAX_DESCRIPTION_LENGTH} characters
 * @param defaultRouting routing of the app's new jobs that name none; empty: {@link
 *     JobDefinition#DEFAULT_ROUTING}
 * @param updatedMs when they were last written (0: never)
 */
public record AppSettings(
    String app, String description, Optional<RoutingStrategy> defaultRouting, long updatedMs) {

  public static final int MAX_DESCRIPTION_LENGTH = 1000;
  private static final Pattern APP = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  public AppSettings {
    Objects.requireNonNull(app, "app");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(defaultRouting, "defaultRouting");
  }

  /** The settings of an app nobody configured. */
  public static AppSettings none(String app) {
    return new AppSettings(app, "", Optional.empty(), 0);
  }

  /** The routing a new job of this app that names none gets. */
  public RoutingStrategy effectiveRouting() {
    return defaultRouting.orElse(JobDefinition.DEFAULT_ROUTING);
  }

  /** Whether {@code app} is a valid app name (it becomes a Redis hash tag: no braces). */
  public static boolean isValidApp(String app) {
    return app != null && APP.matcher(app).matches();
  }

  /** Every problem of these settings, by field ({@code app}, {@code description}). */
  public List<ValidationProblem> problems() {
    List<ValidationProblem> problems = new ArrayList<>();
    if (!isValidApp(app)) {
      problems.add(new ValidationProblem("app", "must be 1-64 characters of [A-Za-z0-9_.-]"));
    }
    int length = description.codePointCount(0, description.length());
    if (length > MAX_DESCRIPTION_LENGTH) {
      problems.add(
          new ValidationProblem(
              "description",
              "is " + length + " characters; at most " + MAX_DESCRIPTION_LENGTH + " are allowed"));
    }
    return List.copyOf(problems);
  }
}
