package dev.kairos.node.api.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.problem.Problems;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;

/**
 * 401 and 403 as {@code application/problem+json}, like every other API error, counted in {@code
 * kairos.api.auth.rejected} (tag {@code reason}: missing, invalid, forbidden) so operators see
 * scripts running with a wrong or expired token.
 */
public final class ProblemSecurityHandlers
    implements AuthenticationEntryPoint, AccessDeniedHandler {

  private static final Logger log = LoggerFactory.getLogger(ProblemSecurityHandlers.class);

  private final ObjectMapper json;
  private final MeterRegistry meters;

  public ProblemSecurityHandlers(ObjectMapper json, MeterRegistry meters) {
    this.json = json;
    this.meters = meters;
  }

  @Override
  public void commence(
      HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
      throws IOException {
    boolean presented = e instanceof OAuth2AuthenticationException;
    meters
        .counter("kairos.api.auth.rejected", "reason", presented ? "invalid" : "missing")
        .increment();
    response.setHeader(
        HttpHeaders.WWW_AUTHENTICATE,
        presented ? "Bearer realm=\"kairos\", error=\"invalid_token\"" : "Bearer realm=\"kairos\"");
    Problems.write(
        response,
        json,
        ProblemType.UNAUTHENTICATED,
        presented
            ? "the bearer token is not valid"
            : "send a token: Authorization: Bearer <token> (see kairos.api.tokens)",
        request.getRequestURI());
  }

  @Override
  public void handle(
      HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
      throws IOException {
    meters.counter("kairos.api.auth.rejected", "reason", "forbidden").increment();
    String who = request.getUserPrincipal() == null ? "?" : request.getUserPrincipal().getName();
    log.info("API token {} refused {} {}", who, request.getMethod(), request.getRequestURI());
    Problems.write(
        response,
        json,
        ProblemType.FORBIDDEN,
        "this token's role may not " + request.getMethod() + " " + request.getRequestURI(),
        request.getRequestURI());
  }
}
