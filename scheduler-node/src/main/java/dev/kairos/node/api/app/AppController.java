package dev.kairos.node.api.app;

import dev.kairos.audit.AuditAction;
import dev.kairos.core.store.AppSettings;
import dev.kairos.core.store.AppSettingsStore;
import dev.kairos.core.validation.ValidationProblem;
import dev.kairos.node.api.audit.AuditTrail;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.FieldError;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.web.Callers;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Per-app settings: a description and the default routing of the app's new jobs. An app exists as
 * soon as something names it, so every valid name answers (an unconfigured app with empty
 * settings); a write replaces them.
 */
@RestController
class AppController {

  static final String APPS = "/api/v1/apps";

  private final AppSettingsStore store;

  private final AuditTrail audit;

  AppController(AppSettingsStore store, AuditTrail audit) {
    this.store = store;
    this.audit = audit;
  }

  @GetMapping(path = APPS + "/{app}", produces = MediaType.APPLICATION_JSON_VALUE)
  AppView get(@PathVariable String app) {
    checkApp(app);
    Callers.requireRead(app, () -> noApp(app));
    return AppView.of(store.get(app));
  }

  @PutMapping(path = APPS + "/{app}", produces = MediaType.APPLICATION_JSON_VALUE)
  AppView put(@PathVariable String app, @RequestBody AppSettingsRequest request) {
    checkApp(app);
    Callers.requireWrite(app, () -> noApp(app));
    String description = request.description() == null ? "" : request.description();
    AppSettings wanted =
        new AppSettings(app, description, Optional.ofNullable(request.defaultRouting()), 0);
    List<ValidationProblem> problems = wanted.problems();
    if (!problems.isEmpty()) {
      throw new ApiProblemException(
          ProblemType.VALIDATION_FAILED,
          "app " + app + " settings are invalid: " + problems,
          problems.stream().map(p -> new FieldError(p.field(), p.message())).toList(),
          Map.of());
    }
    AppSettings stored = store.put(app, description, wanted.defaultRouting());
    audit.action(
        AuditAction.APP_SETTINGS_WRITTEN,
        app,
        "app "
            + app
            + ", defaultRouting "
            + stored.defaultRouting().map(Enum::name).orElse("(global default)"));
    return AppView.of(stored);
  }

  /** An app outside the caller's scope does not exist for it. */
  private static ApiProblemException noApp(String app) {
    return new ApiProblemException(ProblemType.NOT_FOUND, "no app " + app);
  }

  private static void checkApp(String app) {
    if (!AppSettings.isValidApp(app)) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "app", "must be 1-64 characters of [A-Za-z0-9_.-]");
    }
  }
}
