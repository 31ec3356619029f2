package dev.kairos.migrate.xxljob.kairos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.migrate.xxljob.report.JobReport.KairosOutcome;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes jobs through Kairos' own import endpoint ({@code POST /api/v1/job-import}), so the node's
 * validation is the only one that decides. Jobs go in batches of at most {@link
 * #DEFAULT_BATCH_SIZE} (the node's {@code kairos.api.max-batch-size} default); {@link #apply} first
 * asks for a dry run of every batch, so a job the node refuses stops the import before any batch is
 * written.
 */
public final class KairosImportClient {

  public static final int DEFAULT_BATCH_SIZE = 1000;
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final Pattern JOB_FIELD = Pattern.compile("^jobs\\[(\\d+)](.*)$");

  private final URI base;
  private final String token;
  private final int batchSize;
  private final HttpClient http;
  private final ObjectMapper json = new ObjectMapper();

  /**
   * @param base the node's address, {@code http://host:8080}
   * @param token an ADMIN API token (sent as a bearer token, never logged)
   */
  public KairosImportClient(URI base, String token, int batchSize) {
    this.base = URI.create(base.toString().replaceAll("/+$", "") + "/");
    this.token = token;
    this.batchSize = batchSize;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  }

  /** Kairos' dry run: what it would do with each job (CREATE, UPDATE, UNCHANGED), by job id. */
  public Map<String, KairosOutcome> dryRun(List<Map<String, Object>> jobs) {
    return send(jobs, true);
  }

  /** Dry run of every batch, then the writes; by job id, what Kairos did. */
  public Map<String, KairosOutcome> apply(List<Map<String, Object>> jobs) {
    send(jobs, true);
    return send(jobs, false);
  }

  private Map<String, KairosOutcome> send(List<Map<String, Object>> jobs, boolean dryRun) {
    Map<String, KairosOutcome> outcomes = new LinkedHashMap<>();
    for (int from = 0; from < jobs.size(); from += batchSize) {
      List<Map<String, Object>> batch = jobs.subList(from, Math.min(jobs.size(), from + batchSize));
      JsonNode answer = post(batch, dryRun);
      for (JsonNode item : answer.path("items")) {
        JsonNode version = item.get("version");
        outcomes.put(
            item.path("id").asText(),
            new KairosOutcome(
                item.path("action").asText(),
                item.path("applied").asBoolean(),
                version == null || version.isNull() ? null : version.asLong()));
      }
    }
    return outcomes;
  }

  private JsonNode post(List<Map<String, Object>> batch, boolean dryRun) {
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("formatVersion", 1);
    document.put("jobs", batch);
    URI uri = base.resolve("api/v1/job-import" + (dryRun ? "?dryRun=true" : ""));
    HttpResponse<String> response;
    try {
      HttpRequest request =
          HttpRequest.newBuilder(uri)
              .timeout(TIMEOUT)
              .header("Content-Type", "application/json")
              .header("Accept", "application/json")
              .header("Authorization", "Bearer " + token)
              .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(document)))
              .build();
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new KairosApiException("POST " + uri + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosApiException("interrupted during POST " + uri, e);
    }
    JsonNode body = parse(response.body());
    if (response.statusCode() / 100 != 2) {
      throw new KairosApiException(response.statusCode(), problem(uri, response, body, batch));
    }
    return body;
  }

  /** The problem's text, with {@code jobs[3].schedule} named by the job's id. */
  private static String problem(
      URI uri, HttpResponse<String> response, JsonNode body, List<Map<String, Object>> batch) {
    StringBuilder text = new StringBuilder();
    text.append("POST ").append(uri).append(" answered ").append(response.statusCode());
    if (body == null) {
      return text.append(": ").append(abbreviate(response.body())).toString();
    }
    text.append(": ").append(body.path("detail").asText(body.path("title").asText("")));
    List<String> errors = new ArrayList<>();
    for (JsonNode error : body.path("errors")) {
      String field = error.path("field").asText();
      Matcher m = JOB_FIELD.matcher(field);
      if (m.matches()) {
        int index = Integer.parseInt(m.group(1));
        if (index < batch.size()) {
          field = batch.get(index).get("id") + m.group(2);
        }
      }
      errors.add(field + ": " + error.path("message").asText());
    }
    if (!errors.isEmpty()) {
      text.append(" ").append(errors);
    }
    return text.toString();
  }

  private JsonNode parse(String body) {
    try {
      return body == null || body.isBlank() ? null : json.readTree(body);
    } catch (IOException e) {
      return null;
    }
  }

  private static String abbreviate(String text) {
    return text.length() <= 300 ? text : text.substring(0, 300) + "...";
  }
}
