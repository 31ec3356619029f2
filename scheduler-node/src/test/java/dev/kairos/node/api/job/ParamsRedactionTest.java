package dev.kairos.node.api.job;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ParamsRedactionTest {

  @Test
  void secretFieldsAtAnyDepthAndUrlUserInfoAreMaskedTheRestIsKept() {
    String masked =
        ParamsRedaction.masked(
            "kairos.http",
            "{\"url\":\"https://u:p@h.example.com/x?a=1\",\"headers\":{\"Cookie\":\"c=1\","
                + "\"X-Api-Key\":\"k\"},\"steps\":[{\"password\":\"pw\",\"n\":1}],\"n\":2}");

    assertThat(masked)
        .isEqualTo(
            "{\"url\":\"https://***@h.example.com/x?a=1\",\"headers\":{\"Cookie\":\"***\","
                + "\"X-Api-Key\":\"***\"},\"steps\":[{\"password\":\"***\",\"n\":1}],\"n\":2}");
  }

  @Test
  void aScriptJobsScriptIsMaskedAndItsNonJsonParamsWhole() {
    assertThat(
            ParamsRedaction.masked(
                "kairos.script", "{\"interpreter\":\"sh\",\"script\":\"curl -u a:b x\"}"))
        .isEqualTo("{\"interpreter\":\"sh\",\"script\":\"***\"}");
    assertThat(ParamsRedaction.masked("kairos.script", "echo $SECRET")).isEqualTo("***");
  }

  @Test
  void plainTextParamsOfOtherHandlersAreShownAsWritten() {
    assertThat(ParamsRedaction.masked("report", "day=1")).isEqualTo("day=1");
    assertThat(ParamsRedaction.masked("report", "")).isEmpty();
    assertThat(ParamsRedaction.masked("report", null)).isNull();
    assertThat(ParamsRedaction.masked("report", "[1,2]")).isEqualTo("[1,2]");
  }
}
