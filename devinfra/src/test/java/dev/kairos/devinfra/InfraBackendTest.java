package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class InfraBackendTest {

  @Test
  void noValueSelectsTheEmbeddedKit() {
    assertThat(InfraBackend.parse(null)).isEqualTo(InfraBackend.EMBEDDED);
    assertThat(InfraBackend.parse("  ")).isEqualTo(InfraBackend.EMBEDDED);
  }

  @Test
  void backendNamesAreReadInAnyCase() {
    assertThat(InfraBackend.parse("containers")).isEqualTo(InfraBackend.CONTAINERS);
    assertThat(InfraBackend.parse(" CONTAINERS ")).isEqualTo(InfraBackend.CONTAINERS);
    assertThat(InfraBackend.parse("Embedded")).isEqualTo(InfraBackend.EMBEDDED);
  }

  @Test
  void anUnknownBackendIsRejectedNamingTheValidOnes() {
    assertThatThrownBy(() -> InfraBackend.parse("docker"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("-Dkairos.infra=docker is not a backend; use one of embedded, containers");
  }

  @Test
  void theSystemPropertySelects() {
    String before = System.getProperty(InfraBackend.PROPERTY);
    try {
      System.setProperty(InfraBackend.PROPERTY, "containers");
      assertThat(InfraBackend.selected()).isEqualTo(InfraBackend.CONTAINERS);
      System.setProperty(InfraBackend.PROPERTY, "embedded");
      assertThat(InfraBackend.selected()).isEqualTo(InfraBackend.EMBEDDED);
    } finally {
      if (before == null) {
        System.clearProperty(InfraBackend.PROPERTY);
      } else {
        System.setProperty(InfraBackend.PROPERTY, before);
      }
    }
  }
}
