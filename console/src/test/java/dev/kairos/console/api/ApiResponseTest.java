package dev.kairos.console.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiResponseTest {

  @Test
  void absentJsonFieldsReadAsNullAtEveryDepth() {
    ApiResponse r =
        ApiResponse.of(200, Map.of("items", List.of(Map.of("triggerId", "t", "state", "CLAIMED"))));
    Map<String, Object> trigger = r.list("items").get(0);
    assertThat(trigger.containsKey("executor")).isTrue();
    assertThat(trigger.get("executor")).isNull();
    assertThat(r.ok()).isTrue();
  }

  @Test
  void anArrayAnswerIsListedUnderItems() {
    ApiResponse r = ApiResponse.of(200, List.of(Map.of("app", "demo")));
    assertThat(r.list("items")).extracting(m -> m.get("app")).containsExactly("demo");
  }

  @Test
  void aProblemKeepsItsCodeAndItsMessagesByField() {
    ApiResponse r =
        ApiResponse.of(
            400,
            Map.of(
                "code", "validation-failed",
                "detail", "job j is invalid",
                "errors",
                    List.of(
                        Map.of("field", "zone", "message", "unknown time zone 'Mars/Base'"),
                        Map.of("field", "zone", "message", "second"))));
    ApiProblem p = r.problem();
    assertThat(r.ok()).isFalse();
    assertThat(p.code()).isEqualTo("validation-failed");
    assertThat(p.detail()).isEqualTo("job j is invalid");
    assertThat(p.fields()).containsEntry("zone", "unknown time zone 'Mars/Base'; second");
  }
}
