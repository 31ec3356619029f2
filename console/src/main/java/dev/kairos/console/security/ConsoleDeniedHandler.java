package dev.kairos.console.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.web.util.HtmlUtils;

/**
 * A refused console request answers 403 with a short page of its own, not a forward: a forward of
 * the refused POST would be authorised again and refused again. A stale or missing CSRF token (a
 * form from an expired session) says so, since reloading fixes it.
 */
final class ConsoleDeniedHandler implements AccessDeniedHandler {

  private static final Logger log = LoggerFactory.getLogger(ConsoleDeniedHandler.class);

  @Override
  public void handle(
      HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
      throws IOException {
    String who = request.getUserPrincipal() == null ? "?" : request.getUserPrincipal().getName();
    log.info("console refused {} {} for {}", request.getMethod(), request.getRequestURI(), who);
    String why =
        e instanceof CsrfException
            ? "The form's security token is missing or stale (a signed-out or expired session)."
                + " Reload the page and try again."
            : "Your role may look but not change anything here.";
    response.setStatus(HttpServletResponse.SC_FORBIDDEN);
    response.setContentType("text/html;charset=UTF-8");
    String page =
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Refused - Kairos"
            + "</title><link rel=\"stylesheet\" href=\"/console/static/console.css\"></head><body>"
            + "<main><h1>403 Refused</h1><p id=\"refused\">"
            + HtmlUtils.htmlEscape(why)
            + "</p><p><a href=\"/console\">Back to the console</a></p></main></body></html>";
    response.getOutputStream().write(page.getBytes(StandardCharsets.UTF_8));
  }
}
