package dev.kairos.cluster.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Every configuration property the test classpath declares: the {@code
 * spring-configuration-metadata.json} and {@code additional-spring-configuration-metadata.json} of
 * every jar (the scheduler node's, executor-mq's, persistence-sync's, alarm's and Spring Boot's
 * own), looked up by environment variable the way Spring Boot's relaxed binding maps one: dots to
 * underscores, dashes removed (canonical) or turned into underscores (legacy), upper case; an
 * indexed or keyed suffix ({@code KAIROS_API_TOKENS_0_SHA256}) is allowed below a list or map.
 */
final class ConfigurationMetadata {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Environment form → property name. */
  private final Map<String, String> byEnv = new HashMap<>();

  /** Environment forms of list and map properties, whose elements may follow. */
  private final List<String> containers = new ArrayList<>();

  private ConfigurationMetadata() {}

  static ConfigurationMetadata fromClasspath() {
    ConfigurationMetadata metadata = new ConfigurationMetadata();
    for (String resource :
        List.of(
            "META-INF/spring-configuration-metadata.json",
            "META-INF/additional-spring-configuration-metadata.json")) {
      try {
        for (URL url :
            Collections.list(ConfigurationMetadata.class.getClassLoader().getResources(resource))) {
          try (InputStream in = url.openStream()) {
            for (JsonNode p : JSON.readTree(in).path("properties")) {
              metadata.add(p.path("name").asText(), p.path("type").asText(""));
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + resource, e);
      }
    }
    return metadata;
  }

  int size() {
    return byEnv.size();
  }

  private void add(String name, String type) {
    String canonical = name.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT);
    String legacy = name.replace('-', '_').replace('.', '_').toUpperCase(Locale.ROOT);
    byEnv.put(canonical, name);
    byEnv.put(legacy, name);
    if (type.startsWith("java.util.List")
        || type.startsWith("java.util.Map")
        || type.startsWith("java.util.Set")
        || type.endsWith("[]")) {
      containers.add(canonical);
      containers.add(legacy);
    }
  }

  /** The property an environment variable binds to, if any. */
  Optional<String> property(String env) {
    String direct = byEnv.get(env);
    if (direct != null) {
      return Optional.of(direct);
    }
    return containers.stream()
        .filter(c -> env.startsWith(c + "_"))
        .findFirst()
        .map(c -> byEnv.get(c) + "[" + env.substring(c.length() + 1) + "]");
  }
}
