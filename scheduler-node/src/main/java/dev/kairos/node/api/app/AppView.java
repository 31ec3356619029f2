package dev.kairos.node.api.app;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.store.AppSettings;

/**
 * An executor app's settings as the API shows them.
 *
 * @param defaultRouting the app's own default routing; absent when it has none
 * @param effectiveRouting what a job of the app created without a routing gets
 * @param updatedMs when they were last written; absent when never
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AppView(
    String app,
    String description,
    RoutingStrategy defaultRouting,
    RoutingStrategy effectiveRouting,
    Long updatedMs) {

  public static AppView of(AppSettings s) {
    return new AppView(
        s.app(),
        s.description(),
        s.defaultRouting().orElse(null),
        s.effectiveRouting(),
        s.updatedMs() == 0 ? null : s.updatedMs());
  }
}
