package dev.kairos.node.api.problem;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

/**
 * Tomcat's last word on an error, in place of its HTML report: the errors Tomcat answers itself,
 * before any servlet runs — a request line with invalid characters, an encoded {@code /} or NUL in
 * the path, a header over {@code server.max-http-request-header-size} — come back as {@code
 * application/problem+json} like every other error. Guards as {@link ErrorReportValve#report} does:
 * nothing when a body was written (the {@code /error} page answered) or I/O is no longer possible.
 * Never echoes the request line or the container's message, which quote the rejected input.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

  private final ObjectMapper json;

  public ProblemErrorReportValve(ObjectMapper json) {
    this.json = json;
  }

  @Override
  protected void report(Request request, Response response, Throwable throwable) {
    int status = response.getStatus();
    if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
      return;
    }
    AtomicBoolean ioAllowed = new AtomicBoolean(false);
    response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
    if (!ioAllowed.get()) {
      return;
    }
    ProblemType type = ProblemType.forStatus(status);
    ProblemDetail problem =
        Problems.detail(
            type, ErrorDetails.of(type, status, request.getMethod()), null, List.of(), Map.of());
    problem.setStatus(status);
    try {
      response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
      response.setCharacterEncoding("UTF-8");
      Writer writer = response.getReporter();
      if (writer != null) {
        writer.write(json.writeValueAsString(problem));
        response.finishResponse();
      }
    } catch (IOException | IllegalStateException e) {
      // The client is gone or the response cannot take a body: nothing more to say.
    }
  }
}
