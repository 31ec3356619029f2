package dev.kairos.node.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.node.KairosNodeApplication;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One scheduler node started for an API test class (one Spring context per class), with an admin
 * and a viewer token configured by their hashes, and a small HTTP client for it.
 */
final class ApiTestNode implements AutoCloseable {

  static final String ADMIN = "it-admin-" + UUID.randomUUID();
  static final String VIEWER = "it-viewer-" + UUID.randomUUID();
  static final String METRICS = "it-metrics-" + UUID.randomUUID();

  /** A response with its body parsed when it is JSON. */
  record Response(int status, HttpHeaders headers, String body, JsonNode json) {

    String contentType() {
      return headers.firstValue("Content-Type").orElse("");
    }

    @Override
    public String toString() {
      return status + " " + body;
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ConfigurableApplicationContext context;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private ApiTestNode(ConfigurableApplicationContext context) {
    this.context = context;
  }

  /** Command-line properties outrank the node's application.yml. */
  static ApiTestNode start(EmbeddedInfrastructure infra, Map<String, String> overrides) {
    Map<String, String> properties = new LinkedHashMap<>(infra.springProperties());
    properties.put("server.port", "0");
    properties.put("kairos.api.tokens[0].name", "it-admin");
    properties.put("kairos.api.tokens[0].role", "ADMIN");
    properties.put("kairos.api.tokens[0].sha256", sha256(ADMIN));
    properties.put("kairos.api.tokens[1].name", "it-viewer");
    properties.put("kairos.api.tokens[1].role", "VIEWER");
    properties.put("kairos.api.tokens[1].sha256", sha256(VIEWER));
    properties.put("kairos.api.tokens[2].name", "it-metrics");
    properties.put("kairos.api.tokens[2].role", "METRICS");
    properties.put("kairos.api.tokens[2].sha256", sha256(METRICS));
    properties.putAll(overrides);
    String[] args =
        properties.entrySet().stream()
            .map(e -> "--" + e.getKey() + "=" + e.getValue())
            .toArray(String[]::new);
    return new ApiTestNode(new SpringApplicationBuilder(KairosNodeApplication.class).run(args));
  }

  ConfigurableApplicationContext context() {
    return context;
  }

  int port() {
    return ((WebServerApplicationContext) context).getWebServer().getPort();
  }

  Response get(String path, String token) {
    return call("GET", path, null, token, Map.of());
  }

  Response post(String path, String body, String token) {
    return call("POST", path, body, token, Map.of());
  }

  /**
   * One request. A null body sends none; JSON bodies go as application/json unless {@code headers}
   * says otherwise.
   */
  Response call(
      String method, String path, String body, String token, Map<String, String> headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port() + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (body != null && !headers.containsKey("Content-Type")) {
      request.header("Content-Type", "application/json");
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    headers.forEach(request::header);
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      JsonNode json = null;
      String type = response.headers().firstValue("Content-Type").orElse("");
      if (type.contains("json") && !response.body().isEmpty()) {
        json = JSON.readTree(response.body());
      }
      return new Response(response.statusCode(), response.headers(), response.body(), json);
    } catch (IOException e) {
      throw new IllegalStateException(method + " " + path + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + method + " " + path, e);
    }
  }

  /**
   * Sends {@code request} as it is (CRLF line ends, no Host added) on a plain socket and reads the
   * answer until the node closes the connection: for requests HttpClient refuses to send.
   */
  Response raw(String request) {
    try (Socket socket = new Socket("localhost", port())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      byte[] answer = socket.getInputStream().readAllBytes();
      String text = new String(answer, StandardCharsets.UTF_8);
      int end = text.indexOf("\r\n\r\n");
      if (end < 0) {
        throw new IllegalStateException("no complete answer to a raw request: " + text);
      }
      String[] lines = text.substring(0, end).split("\r\n");
      int status = Integer.parseInt(lines[0].split(" ")[1]);
      Map<String, List<String>> headers = new LinkedHashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        headers
            .computeIfAbsent(lines[i].substring(0, colon).trim(), k -> new ArrayList<>())
            .add(lines[i].substring(colon + 1).trim());
      }
      String body = text.substring(end + 4);
      if (headers.getOrDefault("Transfer-Encoding", List.of()).contains("chunked")) {
        body = unchunk(body);
      }
      HttpHeaders parsed = HttpHeaders.of(headers, (k, v) -> true);
      JsonNode json = null;
      if (parsed.firstValue("Content-Type").orElse("").contains("json") && !body.isEmpty()) {
        json = JSON.readTree(body);
      }
      return new Response(status, parsed, body, json);
    } catch (IOException e) {
      throw new IllegalStateException("raw request failed", e);
    }
  }

  private static String unchunk(String chunked) {
    StringBuilder body = new StringBuilder();
    int at = 0;
    while (true) {
      int lineEnd = chunked.indexOf("\r\n", at);
      int size = Integer.parseInt(chunked.substring(at, lineEnd).trim(), 16);
      if (size == 0) {
        return body.toString();
      }
      body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
      at = lineEnd + 2 + size + 2;
    }
  }

  static String sha256(String token) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    context.close();
  }
}
