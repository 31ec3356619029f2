package dev.kairos.node.api;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.List;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document of the admin API ({@code /v3/api-docs}, Swagger UI at {@code
 * /swagger-ui.html}): only {@code /api/**} ({@code springdoc.paths-to-match}), every operation
 * behind the bearer token, and the trigger paths as they are called. Success codes other than 200
 * are declared on the controller methods ({@code @ApiResponse}).
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

  static final String BEARER = "bearerToken";

  private static final String TRIGGERS = "/api/v1/triggers/";

  @Bean
  OpenAPI kairosOpenApi() {
    return new OpenAPI()
        .info(
            new Info()
                .title("Kairos admin API")
                .version("v1")
                .description(
                    "Jobs, triggers, executors and the cluster of a Kairos scheduler; every error"
                        + " is application/problem+json with a stable code (docs/api.md)."))
        .components(
            new Components()
                .addSecuritySchemes(
                    BEARER,
                    new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP)
                        .scheme("bearer")
                        .description(
                            "A token configured on the node by its SHA-256 (kairos.api.tokens);"
                                + " VIEWER reads, ADMIN also writes.")))
        .addSecurityItem(new SecurityRequirement().addList(BEARER));
  }

  /**
   * Trigger ids contain '/', so the controllers map {@code /api/v1/triggers/{*...}}, which
   * springdoc lists as a one-segment path, and the cancel as a POST to the trigger itself.
   * Documented as called: {@code GET /api/v1/triggers/{triggerId}}, {@code POST
   * /api/v1/triggers/{triggerId}/cancel}.
   */
  @Bean
  OpenApiCustomizer kairosTriggerPaths() {
    return api -> {
      if (api.getPaths() == null) {
        return;
      }
      Operation cancel = null;
      for (Map.Entry<String, PathItem> e : List.copyOf(api.getPaths().entrySet())) {
        if (e.getKey().startsWith(TRIGGERS + "{") && e.getValue().getPost() != null) {
          cancel = e.getValue().getPost();
          e.getValue().setPost(null);
          if (e.getValue().readOperations().isEmpty()) {
            api.getPaths().remove(e.getKey());
          }
        }
      }
      if (cancel != null) {
        cancel.setParameters(List.of(triggerIdParameter()));
        api.getPaths().addPathItem(TRIGGERS + "{triggerId}/cancel", new PathItem().post(cancel));
      }
      PathItem get = api.getPaths().get(TRIGGERS + "{triggerId}");
      if (get != null && get.getGet() != null) {
        get.getGet().setParameters(List.of(triggerIdParameter()));
      }
    };
  }

  private static Parameter triggerIdParameter() {
    return new Parameter()
        .name("triggerId")
        .in("path")
        .required(true)
        .description(
            "<jobId>:<fireMs>, <jobId>:<ms>:m<nonce>, <parent>/r<n> or <jobId>:<fireMs>#<i>/<n>;"
                + " the rest of the path, slashes included; send '#' as %23")
        .schema(new io.swagger.v3.oas.models.media.StringSchema());
  }
}
