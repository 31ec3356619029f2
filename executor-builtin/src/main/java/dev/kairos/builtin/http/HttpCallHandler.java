package dev.kairos.builtin.http;

import dev.kairos.builtin.BuiltinRunFailedException;
import dev.kairos.builtin.InvalidParamsException;
import dev.kairos.mq.executor.JobContext;
import dev.kairos.mq.executor.JobHandler;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * after the logged excerpt. Two clients (redirects followed or not) are shared by all runs; their
 * callbacks run on this handler's named daemon threads, stopped by {@link #close()}; their number
 * follows the calls in flight, which the executor's {@code worker-threads} bound.
 */
public final class HttpCallHandler implements JobHandler, AutoCloseable {

  public static final String NAME = "kairos.http";

  private enum State {
    STARTED,
    CLOSED
  }

  private final HttpCallSettings settings;
  private final ExecutorService callbacks;
  private final HttpClient direct;
  private final HttpClient following;
  private final AtomicReference<State> state = new AtomicReference<>(State.STARTED);

  public HttpCallHandler(HttpCallSettings settings) {
    this.settings = settings;
    this.callbacks = Executors.newCachedThreadPool(namedDaemons("kairos-http-"));
    this.direct = client(HttpClient.Redirect.NEVER);
    this.following = client(HttpClient.Redirect.NORMAL);
  }

  private HttpClient client(HttpClient.Redirect redirect) {
    return HttpClient.newBuilder().followRedirects(redirect).executor(callbacks).build();
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
    HttpClient client = call.followRedirects() ? following : direct;
    CompletableFuture<HttpResponse<BodyExcerpt>> exchange =
        client.sendAsync(request, BodyExcerpt.handler(settings.bodyLogChars()));
    HttpResponse<BodyExcerpt> response;
    try {
      response = exchange.get(call.timeout().toMillis(), TimeUnit.MILLISECONDS);
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
