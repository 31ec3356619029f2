package dev.kairos.console.security;

import dev.kairos.console.ConsoleProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.server.resource.introspection.OpaqueTokenIntrospector;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Who may do what under {@code /console}: a session made by signing in with an API token (the
 * node's {@link OpaqueTokenIntrospector}, so the same tokens and roles as {@code /api}). VIEWER and
 * ADMIN read every page and may ask for a schedule preview (it computes, changes nothing); every
 * other POST is ADMIN only and answers 403 otherwise. Forms carry a CSRF token (Spring Security's
 * default, session-held). This chain is ordered before the node's API chain and only matches the
 * console's paths (and {@code /favicon.ico}), so the API stays stateless and untouched.
 */
@Configuration(proxyBeanMethods = false)
public class ConsoleSecurityConfiguration {

  public static final String HOME = "/console";
  public static final String SIGN_IN = "/console/sign-in";
  public static final String SIGN_OUT = "/console/sign-out";
  public static final String PREVIEW = "/console/jobs/preview";

  /**
   * Where a sign-in through an OpenID Connect provider starts: {@code <this>/<registration id>}.
   */
  public static final String OIDC_START = "/console/oauth2/authorization";

  /** Where the provider sends the browser back with the code. */
  public static final String OIDC_CALLBACK = "/console/login/oauth2/code/*";

  /** Cluster-wide controls (pause, resume). */
  public static final String CLUSTER = "/console/cluster";

  /** Runtime API tokens: an admin's business, their list included. */
  public static final String TOKENS = "/console/tokens";

  /** The audit trail: job definitions whole, params included, so an admin's page too. */
  public static final String AUDIT = "/console/audit";

  /**
   * The console's icon, also at the root where browsers look for it on every page (and on the
   * Swagger UI): open to everyone, answered by this chain instead of the API's 401.
   */
  public static final String FAVICON = "/favicon.ico";

  /**
   * Scripts and styles from this origin only: htmx and uPlot come from the node's WebJars, and the
   * pages carry no inline script or style.
   */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " form-action 'self'; frame-ancestors 'none'; base-uri 'self'";

  @Bean
  @Order(Ordered.HIGHEST_PRECEDENCE + 10)
  SecurityFilterChain consoleSecurityFilterChain(
      HttpSecurity http,
      OpaqueTokenIntrospector tokens,
      ConsoleProperties properties,
      ObjectProvider<PasswordSignIn> passwordSignIn,
      ObjectProvider<ClientRegistrationRepository> oidcProviders)
      throws Exception {
    PasswordSignIn users = passwordSignIn.getIfAvailable();
    ClientRegistrationRepository oidc = oidcProviders.getIfAvailable();
    String admin = "ADMIN";
    String viewer = "VIEWER";
    String operator = "OPERATOR";
    http.securityMatcher(HOME, HOME + "/**", FAVICON)
        .authenticationProvider(new TokenAuthenticationProvider(tokens, users))
        .authorizeHttpRequests(
            auth ->
                auth.requestMatchers(
                        SIGN_IN,
                        "/console/static/**",
                        "/console/assets/**",
                        FAVICON,
                        OIDC_START + "/**",
                        OIDC_CALLBACK)
                    .permitAll()
                    .requestMatchers(TOKENS, TOKENS + "/**", AUDIT, AUDIT + "/**")
                    .hasRole(admin)
                    .requestMatchers(HttpMethod.GET, HOME, HOME + "/**")
                    .hasAnyRole(admin, operator, viewer)
                    .requestMatchers(HttpMethod.POST, PREVIEW, SIGN_OUT)
                    .hasAnyRole(admin, operator, viewer)
                    .requestMatchers(CLUSTER + "/**")
                    .hasRole(admin)
                    // Job and trigger writes: the API lets an operator change only its apps.
                    .requestMatchers(HOME + "/**")
                    .hasAnyRole(admin, operator)
                    .anyRequest()
                    .denyAll())
        .formLogin(
            form ->
                form.loginPage(SIGN_IN)
                    .loginProcessingUrl(SIGN_IN)
                    // The form has one field, the token; it arrives as the password.
                    .usernameParameter("name")
                    .passwordParameter("token")
                    .successHandler(new IdleTimeoutOnSignIn(properties.getIdleTimeout(), HOME))
                    .failureUrl(SIGN_IN + "?error"))
        .logout(
            out ->
                out.logoutUrl(SIGN_OUT)
                    .addLogoutHandler(
                        (request, response, auth) -> {
                          if (users != null
                              && auth != null
                              && auth.getPrincipal() instanceof ConsoleUser u
                              && u.session()) {
                            users.signOut(u.token(), u.name());
                          }
                        })
                    .logoutSuccessUrl(SIGN_IN + "?signedOut"))
        .httpBasic(basic -> basic.disable());
    if (oidc != null && users != null) {
      // Sign-in through an OpenID Connect provider registered with Spring Boot's
      // spring.security.oauth2.client.registration.<id>.* (redirect URI
      // {baseUrl}/console/login/oauth2/code/{registrationId}); its endpoints live under /console
      // so this chain handles them.
      http.oauth2Login(
          login ->
              login
                  .loginPage(SIGN_IN)
                  .authorizationEndpoint(a -> a.baseUri(OIDC_START))
                  .redirectionEndpoint(r -> r.baseUri(OIDC_CALLBACK))
                  .successHandler(
                      new OidcSignInSuccess(
                          users,
                          properties.getOidc().getGroupsClaim(),
                          properties.getOidc().getGroupPrefix(),
                          new IdleTimeoutOnSignIn(properties.getIdleTimeout(), HOME),
                          SIGN_IN + "?error"))
                  .failureUrl(SIGN_IN + "?error"));
    }
    http.exceptionHandling(
            e ->
                e.authenticationEntryPoint(new ConsoleEntryPoint(SIGN_IN))
                    .accessDeniedHandler(new ConsoleDeniedHandler()))
        .headers(
            h ->
                h.contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
                    .frameOptions(f -> f.deny()));
    return http.build();
  }
}
