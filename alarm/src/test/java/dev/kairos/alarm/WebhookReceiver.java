package dev.kairos.alarm;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A real HTTP server on a free loopback port that records every POST and answers with scripted
 * statuses (then 200).
 */
final class WebhookReceiver implements AutoCloseable {

  record Received(String path, String query, Map<String, List<String>> headers, String body) {
    String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst()
          .orElse(null);
    }
  }

  private final HttpServer server;
  private final ExecutorService threads;
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final ConcurrentLinkedQueue<Integer> statuses = new ConcurrentLinkedQueue<>();

  WebhookReceiver(int... scriptedStatuses) throws IOException {
    for (int status : scriptedStatuses) {
      statuses.add(status);
    }
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    threads =
        Executors.newFixedThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "test-webhook-receiver");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      URI uri = exchange.getRequestURI();
      received.add(
          new Received(
              uri.getPath(), uri.getRawQuery(), Map.copyOf(exchange.getRequestHeaders()), body));
    }
    Integer status = statuses.poll();
    exchange.sendResponseHeaders(status == null ? 200 : status, -1);
    exchange.close();
  }

  /** The URL of {@code pathAndQuery} on this server. */
  URI url(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + pathAndQuery);
  }

  List<Received> received() {
    return received;
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
