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
   * Documented as called: {@code GET /api/v1/triggers/{triggerId}}, {@code GET
   * /api/v1/triggers/{triggerId}/log}, {@code POST /api/v1/triggers/{triggerId}/cancel}.
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
        // The same mapping serves .../log (after, limit); the trigger itself takes neither.
        get.getGet().setParameters(List.of(triggerIdParameter()));
        api.getPaths()
            .addPathItem(TRIGGERS + "{triggerId}/log", new PathItem().get(logOperation()));
      }
    };
  }

  /** {@code GET /api/v1/triggers/{triggerId}/log}, served by the trigger mapping. */
  private static Operation logOperation() {
    return new Operation()
        .operationId("triggerLog")
        .addTagsItem("trigger-controller")
        .summary("A trigger's handler log: pages it, and tails it while the run goes")
        .description(
            "Lines after the cursor, oldest first, from Redis while the trigger's log is there"
                + " (lines arrive as the run goes, within the executor's flush interval), else"
                + " from PostgreSQL. Read again with after=nextCursor: at once while more is"
                + " true, every second or so while finished is false; stop when finished is true"
                + " and more is false.")
        .parameters(
            List.of(
                triggerIdParameter(),
                new Parameter()
                    .name("after")
                    .in("query")
                    .description(
                        "cursor: the seq of the last line read (0 or absent: from the start)")
                    .schema(new io.swagger.v3.oas.models.media.IntegerSchema().format("int64")),
                new Parameter()
                    .name("limit")
                    .in("query")
                    .description("most lines returned, 1..1000 (default 200)")
                    .schema(new io.swagger.v3.oas.models.media.IntegerSchema())))
        .responses(
            new io.swagger.v3.oas.models.responses.ApiResponses()
                .addApiResponse(
                    "200",
                    new io.swagger.v3.oas.models.responses.ApiResponse()
                        .description(
                            "{triggerId, lines: [{seq, tsMs, level, text}], nextCursor, more,"
                                + " finished, state, source}"))
                .addApiResponse(
                    "400",
                    new io.swagger.v3.oas.models.responses.ApiResponse()
                        .description("problem+json: a bad cursor (after) or limit, named"))
                .addApiResponse(
                    "404",
                    new io.swagger.v3.oas.models.responses.ApiResponse()
                        .description("problem+json: no such trigger")));
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
