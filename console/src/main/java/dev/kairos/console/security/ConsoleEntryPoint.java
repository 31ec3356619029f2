package dev.kairos.console.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;

/**
 * Not signed in: pages redirect to the sign-in page; htmx requests (a dashboard refresh after the
 * session timed out) get 401 with {@code HX-Redirect}, so the whole page goes to the sign-in page
 * instead of the sign-in form being swapped into a fragment.
 */
final class ConsoleEntryPoint implements AuthenticationEntryPoint {

  private final LoginUrlAuthenticationEntryPoint pages;
  private final String signIn;

  ConsoleEntryPoint(String signIn) {
    this.signIn = signIn;
    this.pages = new LoginUrlAuthenticationEntryPoint(signIn);
  }

  @Override
  public void commence(
      HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
      throws IOException, jakarta.servlet.ServletException {
    if ("true".equals(request.getHeader("HX-Request"))) {
      response.setHeader("HX-Redirect", request.getContextPath() + signIn + "?expired");
      response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
      return;
    }
    pages.commence(request, response, e);
  }
}
