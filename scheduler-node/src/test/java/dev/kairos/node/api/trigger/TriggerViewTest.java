package dev.kairos.node.api.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.protocol.record.TriggerFields;
import dev.kairos.sync.history.TriggerRecord;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TriggerViewTest {

  /** As Spring Boot's JsonMixinModule registers it. */
  private final ObjectMapper json =
      new ObjectMapper().addMixIn(TriggerRecord.class, TriggerRecordJson.class);

  @Test
  void aRedisRecordIsWrittenFlatWithoutAbsentValues() throws Exception {
    TriggerView view =
        TriggerView.fromRedis(
            Map.of(
                TriggerFields.ID, "job-1:1000",
                TriggerFields.JOB_ID, "job-1",
                TriggerFields.FIRE_MS, "1000",
                TriggerFields.STATE, "SUCCESS",
                TriggerFields.ATTEMPT, "1",
                TriggerFields.SLOT, "",
                TriggerFields.CLAIMED_MS, "900",
                TriggerFields.DISPATCHED_MS, "0",
                TriggerFields.STARTED_MS, "1002",
                TriggerFields.ENDED_MS, "1010"));

    JsonNode written = json.readTree(json.writeValueAsString(view));

    assertThat(written.path("triggerId").asText()).isEqualTo("job-1:1000");
    assertThat(written.path("fireMs").asLong()).isEqualTo(1000);
    assertThat(written.path("durationMs").asLong()).isEqualTo(8);
    assertThat(written.path("source").asText()).isEqualTo("redis");
    assertThat(written.path("history").findValuesAsText("state"))
        .containsExactly("CLAIMED", "RUNNING", "SUCCESS");
    assertThat(written.has("trigger")).isFalse();
    assertThat(written.has("slot")).as("an empty slot is absent").isFalse();
    assertThat(written.has("dispatchedMs")).as("a zero time is absent").isFalse();
    assertThat(written.has("message")).as("a missing field is absent").isFalse();
  }

  @Test
  void aHistoryRowReadsLikeARedisRecord() {
    TriggerRecord row =
        new TriggerRecord(
            "job-1:1000",
            "job-1",
            1000L,
            "FAILED",
            2,
            "node-a",
            7L,
            "exec-1",
            "3",
            "boom",
            900L,
            950L,
            1002L,
            999L);

    TriggerView view = TriggerView.fromPostgres(row);

    assertThat(view.source()).isEqualTo("postgresql");
    assertThat(view.trigger().slot()).isEqualTo("3");
    assertThat(view.durationMs()).as("an end before the start gives no duration").isNull();
    assertThat(view.history())
        .extracting(TriggerView.Transition::state)
        .containsExactly("CLAIMED", "DISPATCHED", "RUNNING", "FAILED");
  }
}
