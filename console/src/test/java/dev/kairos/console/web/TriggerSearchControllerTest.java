package dev.kairos.console.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TriggerSearchControllerTest {

  @Test
  void aDatetimeLocalValueIsReadAsUtc() {
    assertThat(TriggerSearchController.utc("2026-11-26T10:00")).isEqualTo("2026-11-26T10:00:00Z");
    assertThat(TriggerSearchController.utc("2026-11-26T10:00:05"))
        .isEqualTo("2026-11-26T10:00:05Z");
    assertThat(TriggerSearchController.utc(" 2026-11-26T10:00:05.250 "))
        .isEqualTo("2026-11-26T10:00:05.250Z");
  }

  @Test
  void anythingElseGoesToTheApiUnchangedForItToName() {
    assertThat(TriggerSearchController.utc("1764150000000")).isEqualTo("1764150000000");
    assertThat(TriggerSearchController.utc("yesterday")).isEqualTo("yesterday");
    assertThat(TriggerSearchController.utc("")).isEmpty();
    assertThat(TriggerSearchController.utc(null)).isEmpty();
  }
}
