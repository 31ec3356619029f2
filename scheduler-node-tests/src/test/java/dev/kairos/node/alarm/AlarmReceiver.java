package dev.kairos.node.alarm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A real webhook receiver on a free loopback port: records every alarm body POSTed to it, with the
 * local wall-clock time it arrived.
 */
final class AlarmReceiver implements AutoCloseable {

  /** One POSTed alarm and when it arrived (epoch ms, this JVM's clock). */
  record Received(JsonNode body, long arrivedMs) {}

  private final ObjectMapper json = new ObjectMapper();
  private final HttpServer server;
  private final ExecutorService threads;
  private final List<Received> received = new CopyOnWriteArrayList<>();

  AlarmReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    threads =
        Executors.newFixedThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "test-alarm-receiver");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      received.add(new Received(json.readTree(in.readAllBytes()), System.currentTimeMillis()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    exchange.sendResponseHeaders(204, -1);
    exchange.close();
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/alarms");
  }

  List<JsonNode> alarms() {
    return received.stream().map(Received::body).toList();
  }

  List<JsonNode> alarms(String key) {
    return alarms().stream().filter(a -> a.path("key").asText().equals(key)).toList();
  }

  /** The alarms of {@code key} in arrival order, with their arrival times. */
  List<Received> received(String key) {
    return received.stream().filter(r -> r.body().path("key").asText().equals(key)).toList();
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
