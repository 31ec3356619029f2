package dev.kairos.console.security;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.SavedRequestAwareAuthenticationSuccessHandler;

/**
 * After a sign-in the session gets the console's idle timeout ({@code kairos.console.idle-timeout})
 * rather than the container's default, which the console does not own; then the browser goes to the
 * page it asked for, or the dashboard.
 */
final class IdleTimeoutOnSignIn extends SavedRequestAwareAuthenticationSuccessHandler {

  private static final Logger log = LoggerFactory.getLogger(IdleTimeoutOnSignIn.class);

  private final Duration idleTimeout;

  IdleTimeoutOnSignIn(Duration idleTimeout, String home) {
    this.idleTimeout = idleTimeout;
    setDefaultTargetUrl(home);
  }

  @Override
  public void onAuthenticationSuccess(
      HttpServletRequest request, HttpServletResponse response, Authentication authentication)
      throws ServletException, IOException {
    request.getSession().setMaxInactiveInterval((int) Math.max(1, idleTimeout.toSeconds()));
    log.info("console sign-in: {}", authentication.getPrincipal());
    super.onAuthenticationSuccess(request, response, authentication);
  }
}
