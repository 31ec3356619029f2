package dev.kairos.builtin.http;

import dev.kairos.builtin.BuiltinRunFailedException;
import dev.kairos.builtin.InvalidParamsException;
import dev.kairos.mq.executor.JobContext;
import dev.kairos.mq.executor.JobHandler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The built-in handler {@value #NAME}: one HTTP call per run, described by the job's params ({@link
 * HttpCallParams}). The run succeeds when the status is in the job's success set; the status, the
 * duration and the first bytes of the body go to the run's log, credential headers and URL secrets
 * masked ({@link SecretRedaction}); the request body is never logged, only its size.
 *
 * <p>Uses the JDK's {@link HttpClient}: no extra library, a per-call deadline over the whole
 * exchange ({@code sendAsync} + a bounded wait that cancels the exchange), cancellation on the
 * executor's interrupt (job timeout, cancel, shutdown), and a body subscriber that stops reading
 * after the logged excerpt. Where a call may go is the executor's {@link DestinationPolicy} (public
 * addresses only by default), checked before the call and at every redirect, which this handler
 * follows itself for that reason. One client is shared by all runs; its callbacks run on this
 * handler's named daemon threads, stopped by {@link #close()}; their number follows the calls in
 * flight, which the executor's {@code worker-threads} bound.
 */
public final class HttpCallHandler implements JobHandler, AutoCloseable {

  public static final String NAME = "kairos.http";

  /** Most redirects one call follows (the JDK's own limit is 5 too). */
  static final int MAX_REDIRECTS = 5;

  private enum State {
    STARTED,
    CLOSED
  }

  private final HttpCallSettings settings;
  private final ExecutorService callbacks;
  private final HttpClient client;
  private final AtomicReference<State> state = new AtomicReference<>(State.STARTED);

  public HttpCallHandler(HttpCallSettings settings) {
    this.settings = settings;
    this.callbacks = Executors.newCachedThreadPool(namedDaemons("kairos-http-"));
    this.client =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .executor(callbacks)
            .build();
  }

  private static ThreadFactory namedDaemons(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  @Override
  public void execute(JobContext context) throws Exception {
    if (state.get() == State.CLOSED) {
      throw new IllegalStateException(NAME + " is closed");
    }
    HttpCallParams call = HttpCallParams.parse(NAME, context.params(), settings.defaultTimeout());
    HttpRequest request = request(call);
    String target = call.method() + " " + SecretRedaction.url(call.url());
    String refused = refusal(call.url());
    if (refused != null) {
      throw new BuiltinRunFailedException(target + ": refused: " + refused);
    }
    context
        .log()
        .info(
            "{} headers {} body {} timeout {} ms success {}",
            target,
            SecretRedaction.headers(call.headers()),
            call.body() == null ? "none" : call.body().length() + " chars",
            call.timeout().toMillis(),
            call.success());
    long start = System.nanoTime();
    long deadline = start + call.timeout().toNanos();
    HttpResponse<BodyExcerpt> response = exchange(call, request, target, deadline);
    for (int hop = 1; call.followRedirects() && isRedirect(response.statusCode()); hop++) {
      if (hop > MAX_REDIRECTS) {
        throw new BuiltinRunFailedException(target + ": more than " + MAX_REDIRECTS + " redirects");
      }
      Optional<HttpRequest> next = redirect(request, response);
      if (next.isEmpty()) {
        break; // no Location, or https -> http: the 3xx is the answer (as the JDK's NORMAL)
      }
      request = next.get();
      context
          .log()
          .info(
              "HTTP {} redirects to {} {}",
              response.statusCode(),
              request.method(),
              SecretRedaction.url(request.uri()));
      response = exchange(call, request, target, deadline);
    }
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    int status = response.statusCode();
    BodyExcerpt body = response.body();
    context.log().info("HTTP {} in {} ms, body {}", status, ms, describe(body));
    if (!call.success().matches(status)) {
      throw new BuiltinRunFailedException(
          target + " answered HTTP " + status + ", not a success status (" + call.success() + ")");
    }
    context.log().setMessage("HTTP " + status + " from " + target + " in " + ms + " ms");
  }

  /**
   * One exchange, within what is left of the call's deadline. Redirects are followed here, hop by
   * hop, not by the client: each new destination passes {@link DestinationPolicy} first.
   */
  private HttpResponse<BodyExcerpt> exchange(
      HttpCallParams call, HttpRequest request, String target, long deadline)
      throws InterruptedException, BuiltinRunFailedException {
    long leftNanos = deadline - System.nanoTime();
    if (leftNanos <= 0) {
      throw new BuiltinRunFailedException(
          target + ": no complete response within " + call.timeout().toMillis() + " ms");
    }
    CompletableFuture<HttpResponse<BodyExcerpt>> exchange =
        client.sendAsync(request, BodyExcerpt.handler(settings.bodyLogChars()));
    try {
      return exchange.get(leftNanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      exchange.cancel(true);
      throw new BuiltinRunFailedException(
          target + ": no complete response within " + call.timeout().toMillis() + " ms");
    } catch (InterruptedException e) {
      // Safety: cancel before rethrowing so the exchange does not outlive the run.
      exchange.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new BuiltinRunFailedException(target + ": request failed: " + cause, cause);
    }
  }

  private static boolean isRedirect(int status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  }

  /**
   * The request a redirect leads to, or empty when it is not followed. 303, and 301/302 after a
   * POST, become a GET without body (what browsers and the JDK do); credential headers are not
   * carried to another origin.
   */
  private Optional<HttpRequest> redirect(HttpRequest previous, HttpResponse<?> response)
      throws BuiltinRunFailedException {
    Optional<String> location = response.headers().firstValue("location");
    if (location.isEmpty()) {
      return Optional.empty();
    }
    URI next;
    try {
      next = previous.uri().resolve(location.get().trim());
    } catch (IllegalArgumentException e) {
      throw new BuiltinRunFailedException(
          "HTTP " + response.statusCode() + " redirects to an invalid Location: " + e.getMessage());
    }
    String scheme = next.getScheme() == null ? "" : next.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      return Optional.empty();
    }
    if (scheme.equals("http") && "https".equalsIgnoreCase(previous.uri().getScheme())) {
      return Optional.empty();
    }
    String refused = refusal(next);
    if (refused != null) {
      throw new BuiltinRunFailedException(
          "HTTP "
              + response.statusCode()
              + " redirects to "
              + SecretRedaction.url(next)
              + ": refused: "
              + refused);
    }
    int status = response.statusCode();
    boolean toGet =
        status == 303 || ((status == 301 || status == 302) && previous.method().equals("POST"));
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(next).timeout(previous.timeout().orElseThrow());
    if (toGet) {
      builder.GET();
    } else {
      builder.method(
          previous.method(), previous.bodyPublisher().orElse(HttpRequest.BodyPublishers.noBody()));
    }
    boolean sameOrigin = sameOrigin(previous.uri(), next);
    previous
        .headers()
        .map()
        .forEach(
            (name, values) -> {
              if (sameOrigin || !SecretRedaction.isSecret(name)) {
                values.forEach(value -> builder.header(name, value));
              }
            });
    return Optional.of(builder.build());
  }

  private static boolean sameOrigin(URI a, URI b) {
    return a.getScheme().equalsIgnoreCase(b.getScheme())
        && a.getHost().equalsIgnoreCase(b.getHost())
        && a.getPort() == b.getPort();
  }

  /** Why this executor may not call {@code url}, or null. */
  private String refusal(URI url) {
    try {
      settings.destinations().check(url);
      return null;
    } catch (DestinationPolicy.RefusedException e) {
      return e.getMessage();
    }
  }

  private String describe(BodyExcerpt body) {
    if (body.bytes() == 0) {
      return "empty";
    }
    String size =
        body.truncated()
            ? "of at least " + body.bytes() + " bytes"
            : "of " + body.bytes() + " bytes";
    if (settings.bodyLogChars() == 0) {
      return size + " (not logged)";
    }
    String oneLine = body.text().replace("\r", "").replace('\n', ' ');
    return size + (body.truncated() ? ", starts " : ": ") + "\"" + oneLine + "\"";
  }

  private static HttpRequest request(HttpCallParams call) {
    HttpRequest.BodyPublisher publisher =
        call.body() == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(call.body());
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(call.url()).method(call.method(), publisher).timeout(call.timeout());
    try {
      call.headers().forEach(builder::header);
    } catch (IllegalArgumentException e) {
      // The JDK refuses headers it manages itself (Host, Connection, Content-Length, ...).
      throw new InvalidParamsException(NAME, "headers", e.getMessage());
    }
    return builder.build();
  }

  /** Stops the callback threads; runs in progress fail. A second call does nothing. */
  @Override
  public void close() {
    if (state.compareAndSet(State.STARTED, State.CLOSED)) {
      callbacks.shutdownNow();
    }
  }
}
