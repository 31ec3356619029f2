package dev.kairos.cluster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The provisioned Grafana dashboard: valid JSON on the provisioned data source, every metric it
 * queries is one a node exports (node-metric-names.txt, taken from a real node's scrape), and every
 * latency quantile is computed from histogram buckets summed across nodes, never from client-side
 * percentiles, which cannot be aggregated.
 */
class DashboardTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern METRIC = Pattern.compile("\\b(kairos_[a-z_]+)\\b");

  @Test
  void everyQueryUsesAnExportedMetricAndAggregatableBuckets() throws IOException {
    JsonNode dashboard =
        new ObjectMapper().readTree(ROOT.resolve("deploy/grafana/dashboards/kairos.json").toFile());
    String datasources =
        Files.readString(
            ROOT.resolve("deploy/grafana/provisioning/datasources/prometheus.yml"),
            StandardCharsets.UTF_8);
    Set<String> exported = exportedMetrics();
    List<String> expressions = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      assertThat(datasources).contains("uid: " + panel.path("datasource").path("uid").asText());
      panel.path("targets").forEach(t -> expressions.add(t.path("expr").asText()));
    }
    assertThat(expressions).hasSizeGreaterThan(10);
    for (String expr : expressions) {
      Matcher m = METRIC.matcher(expr);
      while (m.find()) {
        assertThat(exported).as("metric in %s", expr).contains(m.group(1));
      }
      if (expr.contains("histogram_quantile")) {
        assertThat(expr).containsPattern("sum by \\(le\\) \\(rate\\(kairos_[a-z_]+_seconds_bucket");
      }
    }
    assertThat(String.join("\n", expressions))
        .contains("kairos_triggers_start_lateness_seconds_bucket")
        .contains("kairos_fires_dispatch_lateness_seconds_bucket");
  }

  private static Set<String> exportedMetrics() throws IOException {
    try (InputStream in = DashboardTest.class.getResourceAsStream("/node-metric-names.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .filter(l -> !l.isBlank() && !l.startsWith("#"))
          .collect(Collectors.toSet());
    }
  }
}
