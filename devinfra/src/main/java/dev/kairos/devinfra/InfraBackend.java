package dev.kairos.devinfra;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Where {@link RealInfra} components run, chosen per test JVM with {@code -Dkairos.infra=...} (or
 * the environment variable {@code KAIROS_INFRA}): {@link #EMBEDDED}, the default, starts them on
 * this machine from Maven Central artifacts; {@link #CONTAINERS} starts the same components as
 * Docker containers through Testcontainers and hands the tests the same connection info. Where no
 * Docker engine is reachable, {@code containers} skips the tests with the reason (a JUnit
 * assumption): it never fails them and never falls back to the embedded kit.
 */
public enum InfraBackend {
  EMBEDDED,
  CONTAINERS;

  /** The system property that selects the backend. */
  public static final String PROPERTY = "kairos.infra";

  /** The environment variable read when the property is not set. */
  public static final String ENVIRONMENT = "KAIROS_INFRA";

  /** The backend this JVM asks for. */
  public static InfraBackend selected() {
    String value = System.getProperty(PROPERTY);
    // Blank when Maven passes the root pom's empty default on to the test JVM.
    return parse(value != null && !value.isBlank() ? value : System.getenv(ENVIRONMENT));
  }

  /**
   * {@code null} or blank means {@link #EMBEDDED}; otherwise a backend's name in any case.
   *
   * @throws IllegalArgumentException naming the valid values
   */
  public static InfraBackend parse(String value) {
    if (value == null || value.isBlank()) {
      return EMBEDDED;
    }
    String wanted = value.trim().toUpperCase(Locale.ROOT);
    return Arrays.stream(values())
        .filter(b -> b.name().equals(wanted))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "-D"
                        + PROPERTY
                        + "="
                        + value
                        + " is not a backend; use one of "
                        + Arrays.stream(values())
                            .map(b -> b.name().toLowerCase(Locale.ROOT))
                            .collect(Collectors.joining(", "))));
  }
}
