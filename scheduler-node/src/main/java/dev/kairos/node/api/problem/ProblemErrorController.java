package dev.kairos.node.api.problem;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.autoconfigure.web.servlet.error.BasicErrorController;
import org.springframework.boot.autoconfigure.web.servlet.error.ErrorViewResolver;
import org.springframework.boot.web.servlet.error.ErrorAttributes;
import org.springframework.boot.web.servlet.error.ErrorController;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.servlet.ModelAndView;

/**
 * The node's error page ({@code /error}), replacing Spring Boot's: every error that reaches it — a
 * status sent by Spring MVC before a handler was found (404 unknown path, 405, 406), by Spring
 * Security's path firewall (400), or by the container — is answered as {@code
 * application/problem+json} with the code of {@link ProblemType#forStatus}, whatever the request's
 * {@code Accept} says. Only the web console's pages ({@code /console/**}) asked for by a browser
 * keep Spring Boot's HTML error page.
 */
@Hidden
@Controller
@RequestMapping("${server.error.path:${error.path:/error}}")
class ProblemErrorController implements ErrorController {

  private static final Logger log = LoggerFactory.getLogger(ProblemErrorController.class);

  private static final String CONSOLE = "/console";

  private final ObjectMapper json;
  private final BasicErrorController html;

  ProblemErrorController(
      ObjectMapper json,
      ErrorAttributes attributes,
      ServerProperties server,
      ObjectProvider<ErrorViewResolver> views) {
    this.json = json;
    this.html =
        new BasicErrorController(attributes, server.getError(), views.orderedStream().toList());
  }

  @RequestMapping
  ModelAndView error(HttpServletRequest request, HttpServletResponse response) throws IOException {
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    // A direct GET /error is not an error being rendered: there is nothing at that path.
    int status = code instanceof Integer s ? s : 404;
    String path = (String) request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
    if (path != null && (path.equals(CONSOLE) || path.startsWith(CONSOLE + "/"))) {
      String accept = request.getHeader(HttpHeaders.ACCEPT);
      if (accept != null && accept.contains("text/html")) {
        return html.errorHtml(request, response);
      }
    }
    if (status >= 500
        && request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable t) {
      log.error("{} {} failed", request.getMethod(), path, t);
    }
    ProblemType type = ProblemType.forStatus(status);
    response.resetBuffer();
    Problems.write(
        response, json, type, status, ErrorDetails.of(type, status, request.getMethod()), path);
    return null;
  }
}
