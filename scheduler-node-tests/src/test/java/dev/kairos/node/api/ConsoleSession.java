package dev.kairos.node.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A signed-in console user as a browser without JavaScript is one: a cookie jar, the CSRF token the
 * pages render, form posts, and redirects not followed (so a test sees where a post leads).
 */
final class ConsoleSession {

  /** A page or a redirect. */
  record Page(int status, String location, String html) {}

  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

  private final String base;
  private final HttpClient http =
      HttpClient.newBuilder()
          .cookieHandler(new CookieManager())
          .followRedirects(HttpClient.Redirect.NEVER)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private String csrf;

  private ConsoleSession(int port) {
    this.base = "http://localhost:" + port;
  }

  /** Signs in with an API token, as the sign-in form does. */
  static ConsoleSession signIn(ApiTestNode node, String token) {
    ConsoleSession session = new ConsoleSession(node.port());
    session.get("/console/sign-in");
    Page signedIn = session.post("/console/sign-in", Map.of("token", token));
    assertThat(signedIn.location()).as("signed in: " + signedIn).endsWith("/console");
    return session;
  }

  /** Signs in with a console user's name and password, as the user sign-in form does. */
  static ConsoleSession signInAs(ApiTestNode node, String username, String password) {
    ConsoleSession session = new ConsoleSession(node.port());
    session.get("/console/sign-in");
    Page signedIn = session.post("/console/sign-in", Map.of("name", username, "token", password));
    assertThat(signedIn.location()).as("signed in: " + signedIn).endsWith("/console");
    return session;
  }

  /** A sign-in attempt as it is answered (a redirect to the console or back with an error). */
  static Page attempt(ApiTestNode node, String username, String password) {
    ConsoleSession session = new ConsoleSession(node.port());
    session.get("/console/sign-in");
    return session.post("/console/sign-in", Map.of("name", username, "token", password));
  }

  /**
   * Signs in through an OpenID Connect provider the node registered as {@code registration}: the
   * browser's round trip (console, provider, back to the console with the code) followed by hand.
   */
  static ConsoleSession signInThrough(ApiTestNode node, String registration) {
    ConsoleSession session = new ConsoleSession(node.port());
    Page landed = session.followOidc(registration);
    assertThat(landed.location()).as("signed in: " + landed).endsWith("/console");
    return session;
  }

  /** As {@link #signInThrough}, answering where the console finally sends the browser. */
  static Page attemptThrough(ApiTestNode node, String registration) {
    return new ConsoleSession(node.port()).followOidc(registration);
  }

  private Page followOidc(String registration) {
    get("/console/sign-in");
    Page step = get("/console/oauth2/authorization/" + registration);
    // To the provider, which signs the person in at once (no login page) and sends the browser
    // back to the console's callback, which answers with the console or the sign-in page.
    for (int hop = 0; hop < 2; hop++) {
      assertThat(step.status()).as(step.toString()).isEqualTo(302);
      step = send(HttpRequest.newBuilder(URI.create(absolute(step.location()))).GET());
    }
    return step;
  }

  private String absolute(String location) {
    return location.startsWith("http") ? location : base + location;
  }

  /** A page; remembers the CSRF token it renders for the next post. */
  Page get(String path) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
  }

  /** A form post with the session's CSRF token (fields may be null: then they are not sent). */
  Page post(String path, Map<String, String> fields) {
    Map<String, String> form = new LinkedHashMap<>();
    fields.forEach(
        (k, v) -> {
          if (v != null) {
            form.put(k, v);
          }
        });
    form.put("_csrf", csrf);
    String body =
        form.entrySet().stream()
            .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
            .collect(Collectors.joining("&"));
    return send(
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  private Page send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> response =
          http.send(
              request.timeout(Duration.ofSeconds(30)).build(),
              HttpResponse.BodyHandlers.ofString());
      Matcher m = CSRF.matcher(response.body());
      if (m.find()) {
        csrf = m.group(1);
      }
      return new Page(
          response.statusCode(),
          response.headers().firstValue("Location").orElse(null),
          response.body());
    } catch (IOException e) {
      throw new IllegalStateException("console request failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
