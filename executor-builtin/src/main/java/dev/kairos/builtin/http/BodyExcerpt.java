package dev.kairos.builtin.http;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * The first bytes of a response body, never more: a subscriber that keeps up to {@code limit} bytes
 * and then cancels the rest of the body (the connection is closed rather than drained), so a huge
 * or endless answer costs neither memory nor time.
 *
 * @param text the kept bytes as UTF-8 (a cut character is replaced)
 * @param bytes how many bytes were read
 * @param truncated whether the body went on past the limit
 */
public record BodyExcerpt(String text, long bytes, boolean truncated) {

  /** A body handler that keeps at most {@code limit} bytes of each response. */
  static HttpResponse.BodyHandler<BodyExcerpt> handler(int limit) {
    return info -> new Subscriber(limit);
  }

  /** Called by the HTTP client's threads, one signal at a time (reactive streams rule 1.3). */
  private static final class Subscriber implements HttpResponse.BodySubscriber<BodyExcerpt> {

    private final int limit;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final CompletableFuture<BodyExcerpt> result = new CompletableFuture<>();
    private Flow.Subscription subscription;
    private long bytes;

    Subscriber(int limit) {
      this.limit = limit;
    }

    @Override
    public CompletionStage<BodyExcerpt> getBody() {
      return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      subscription.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
      if (result.isDone()) {
        return;
      }
      for (ByteBuffer buffer : buffers) {
        int take = (int) Math.min(buffer.remaining(), Math.max(0, limit - kept.size()));
        byte[] chunk = new byte[take];
        buffer.get(chunk);
        kept.write(chunk, 0, take);
        bytes += take;
        if (buffer.hasRemaining()) {
          bytes += buffer.remaining();
          subscription.cancel();
          result.complete(excerpt(true));
          return;
        }
      }
      subscription.request(1);
    }

    @Override
    public void onError(Throwable error) {
      result.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
      result.complete(excerpt(false));
    }

    private BodyExcerpt excerpt(boolean truncated) {
      return new BodyExcerpt(
          new String(kept.toByteArray(), StandardCharsets.UTF_8), bytes, truncated);
    }
  }
}
