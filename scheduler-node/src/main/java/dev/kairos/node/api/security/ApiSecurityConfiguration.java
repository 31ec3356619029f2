package dev.kairos.node.api.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.node.api.ApiProperties;
import dev.kairos.security.Role;
import dev.kairos.security.token.RuntimeTokenStore;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.autoconfigure.security.servlet.EndpointRequest;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Who may call what. {@code /api/**}: a valid bearer token; GET, HEAD, OPTIONS (and the schedule
 * preview, which only computes) for {@code VIEWER}, {@code OPERATOR} and {@code ADMIN}; writes to
 * jobs, batches, imports, triggers and app settings for {@code OPERATOR} (of the apps its token
 * names, checked per endpoint) and {@code ADMIN}; everything else {@code ADMIN} only; the runtime
 * tokens ({@code /api/v1/tokens}), the console users ({@code /api/v1/users}) and the audit trail
 * ({@code /api/v1/audit}) ADMIN only, reads included. Actuator: health open (load balancers, the
 * demo), every other endpoint {@code ADMIN}. The internal cluster endpoints check their own shared
 * secret and stay outside bearer auth. The OpenAPI document and Swagger UI are open: they describe
 * the API, hold no data. Anything else is refused. Stateless: no session, no cookie, hence no CSRF
 * token.
 */
@Configuration(proxyBeanMethods = false)
public class ApiSecurityConfiguration {

  private static final Logger log = LoggerFactory.getLogger(ApiSecurityConfiguration.class);

  /** Readers may POST here: it computes fire times of a schedule and changes nothing. */
  public static final String PREVIEW_PATH = "/api/v1/schedules/preview";

  public static final String TOKENS_PATH = "/api/v1/tokens";

  public static final String USERS_PATH = "/api/v1/users";

  /** Writes an OPERATOR may make, to its own apps; every other write is an ADMIN's. */
  static final String[] APP_WRITE_PATHS = {
    "/api/v1/jobs",
    "/api/v1/jobs/**",
    "/api/v1/job-batches/**",
    "/api/v1/job-import",
    "/api/v1/triggers/**",
    "/api/v1/apps/**",
    "/api/v1/workflows",
    "/api/v1/workflows/**",
    "/api/v1/workflow-runs/**",
    "/api/v1/backfills/**"
  };

  /** The audit trail: who changed what, with job definitions whole (params included). */
  public static final String AUDIT_PATH = "/api/v1/audit";

  @Bean
  RuntimeTokenStore runtimeTokenStore(KairosRedis redis, ClusterClock clock) {
    return new RuntimeTokenStore(redis, clock);
  }

  @Bean
  ApiTokenIntrospector apiTokenIntrospector(ApiProperties properties, RuntimeTokenStore runtime) {
    ApiTokenIntrospector introspector =
        new ApiTokenIntrospector(properties.getTokens(), runtime::authenticate);
    if (introspector.size() == 0) {
      log.warn(
          "kairos.api.tokens is empty: only tokens created at runtime are accepted, and only an"
              + " ADMIN token can create one. Configure a token hash (printf %s \"$TOKEN\" |"
              + " sha256sum) with a role.");
    } else {
      log.info(
          "Admin API accepts {} configured token(s): {}",
          introspector.size(),
          properties.getTokens());
    }
    return introspector;
  }

  @Bean
  ProblemSecurityHandlers problemSecurityHandlers(ObjectMapper json, MeterRegistry meters) {
    return new ProblemSecurityHandlers(json, meters);
  }

  /**
   * What needs no token: health, the OpenAPI document and its Swagger UI page (a browser cannot
   * send a bearer token with a page; the page asks for one before it calls the API), the
   * cluster-internal endpoints (their own secret) and the error page. A stale Authorization header
   * on these is ignored rather than answered 401, so a monitor with an old token still sees health.
   */
  static RequestMatcher open() {
    PathPatternRequestMatcher.Builder paths = PathPatternRequestMatcher.withDefaults();
    return new OrRequestMatcher(
        EndpointRequest.to(HealthEndpoint.class),
        paths.matcher("/v3/api-docs"),
        paths.matcher("/v3/api-docs/**"),
        paths.matcher("/swagger-ui.html"),
        paths.matcher("/swagger-ui/**"),
        paths.matcher("/internal/cluster/**"),
        paths.matcher("/error"));
  }

  @Bean
  SecurityFilterChain apiSecurityFilterChain(
      HttpSecurity http, ApiTokenIntrospector tokens, ProblemSecurityHandlers problems)
      throws Exception {
    String admin = Role.ADMIN.name();
    String viewer = Role.VIEWER.name();
    String operator = Role.OPERATOR.name();
    String metrics = Role.METRICS.name();
    RequestMatcher open = open();
    DefaultBearerTokenResolver header = new DefaultBearerTokenResolver();
    BearerTokenResolver resolver =
        request -> open.matches(request) ? null : header.resolve(request);
    http.csrf(AbstractHttpConfigurer::disable)
        .httpBasic(AbstractHttpConfigurer::disable)
        .formLogin(AbstractHttpConfigurer::disable)
        .logout(AbstractHttpConfigurer::disable)
        .requestCache(AbstractHttpConfigurer::disable)
        .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
        .authorizeHttpRequests(
            auth ->
                auth.requestMatchers(open)
                    .permitAll()
                    .requestMatchers(HttpMethod.GET, "/actuator/prometheus")
                    .hasAnyRole(admin, metrics)
                    .requestMatchers(EndpointRequest.toAnyEndpoint())
                    .hasRole(admin)
                    // An endpoint that is not exposed (env, beans, ...): an admin learns it is
                    // not there (404), everyone else is refused as for the exposed ones.
                    .requestMatchers("/actuator/**")
                    .hasRole(admin)
                    // Tokens and users, even their names and owners, are the admins' business.
                    .requestMatchers(
                        TOKENS_PATH, TOKENS_PATH + "/**", USERS_PATH, USERS_PATH + "/**")
                    .hasRole(admin)
                    // The audit trail holds params whole (as an admin reads them): admins only.
                    .requestMatchers(AUDIT_PATH, AUDIT_PATH + "/**")
                    .hasRole(admin)
                    .requestMatchers(HttpMethod.GET, "/api/**")
                    .hasAnyRole(admin, operator, viewer)
                    // HEAD is a GET without body, OPTIONS lists the methods: both only read.
                    .requestMatchers(HttpMethod.HEAD, "/api/**")
                    .hasAnyRole(admin, operator, viewer)
                    .requestMatchers(HttpMethod.OPTIONS, "/api/**")
                    .hasAnyRole(admin, operator, viewer)
                    .requestMatchers(HttpMethod.POST, PREVIEW_PATH)
                    .hasAnyRole(admin, operator, viewer)
                    // Writes to what belongs to an app; each endpoint then checks the app is one
                    // of the operator's (dev.kairos.node.api.web.Callers).
                    .requestMatchers(APP_WRITE_PATHS)
                    .hasAnyRole(admin, operator)
                    .requestMatchers("/api/**")
                    .hasRole(admin)
                    .anyRequest()
                    .denyAll())
        .oauth2ResourceServer(
            oauth ->
                oauth
                    .bearerTokenResolver(resolver)
                    .opaqueToken(opaque -> opaque.introspector(tokens))
                    .authenticationEntryPoint(problems)
                    .accessDeniedHandler(problems))
        .exceptionHandling(e -> e.authenticationEntryPoint(problems).accessDeniedHandler(problems));
    return http.build();
  }
}
