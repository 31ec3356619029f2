package dev.kairos.node.api.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.problem.Problems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Caps API request bodies at {@code kairos.api.max-body-size}: a declared Content-Length beyond it
 * is answered 413 before anything is read; a chunked body is counted while Jackson reads it and
 * fails with {@link BodyTooLargeException} at the limit, which the exception handler turns into
 * 413. Either way nothing is changed. (Tomcat's own limits cover form posts only.)
 */
public final class RequestBodyLimitFilter extends OncePerRequestFilter {

  private final long limit;
  private final ObjectMapper json;

  public RequestBodyLimitFilter(long limit, ObjectMapper json) {
    this.limit = limit;
    this.json = json;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    long declared = request.getContentLengthLong();
    if (declared > limit) {
      Problems.write(
          response,
          json,
          ProblemType.PAYLOAD_TOO_LARGE,
          "the request body is " + declared + " bytes; at most " + limit + " are accepted",
          request.getRequestURI());
      return;
    }
    chain.doFilter(new Limited(request, limit), response);
  }

  private static final class Limited extends HttpServletRequestWrapper {

    private final long limit;
    private ServletInputStream stream;

    Limited(HttpServletRequest request, long limit) {
      super(request);
      this.limit = limit;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      if (stream == null) {
        stream = new CountingStream(super.getInputStream(), limit);
      }
      return stream;
    }
  }

  /** Counts bytes read and fails once more than the limit arrived. Read by one thread. */
  private static final class CountingStream extends ServletInputStream {

    private final ServletInputStream in;
    private final long limit;
    private long count;

    CountingStream(ServletInputStream in, long limit) {
      this.in = in;
      this.limit = limit;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        counted(1);
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = in.read(buffer, offset, length);
      if (n > 0) {
        counted(n);
      }
      return n;
    }

    private void counted(int n) throws BodyTooLargeException {
      count += n;
      if (count > limit) {
        throw new BodyTooLargeException(limit);
      }
    }

    @Override
    public boolean isFinished() {
      return in.isFinished();
    }

    @Override
    public boolean isReady() {
      return in.isReady();
    }

    @Override
    public void setReadListener(ReadListener listener) {
      in.setReadListener(listener);
    }
  }
}
