package dev.kairos.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.sync.event.EventParser;
import dev.kairos.sync.event.StreamId;
import dev.kairos.sync.event.SyncEvent;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventParserTest {

  private final EventParser parser = new EventParser();

  @Test
  void streamIdsOrderAndStepPastThemselves() {
    assertThat(StreamId.parse("5-2")).isGreaterThan(StreamId.parse("4-9"));
    assertThat(StreamId.parse("5-2").next()).isEqualTo(new StreamId(5, 3));
    assertThat(StreamId.parse("7").toString()).isEqualTo("7-0");
  }

  @Test
  void anEndedEventIsTheWholeRowOfItsTrigger() {
    Map<String, String> body = new java.util.HashMap<>();
    body.put("type", "TRIGGER_ENDED");
    body.put("triggerId", "j:5");
    body.put("jobId", "j");
    body.put("state", "SUCCESS");
    body.put("fireMs", "5");
    body.put("attempt", "1");
    body.put("scheduleVersion", "3");
    body.put("node", "node-1");
    body.put("term", "7");
    body.put("slot", "2");
    body.put("executor", "exec-1");
    body.put("message", "ok");
    body.put("claimedMs", "1");
    body.put("dispatchedMs", "4");
    body.put("startedMs", "6");
    body.put("endedMs", "8");
    body.put("quiet", "1");
    body.put("ms", "8");
    var ended = (SyncEvent.TriggerChange) parser.parse(3, "10-0", body);

    assertThat(ended.state()).isEqualTo("SUCCESS");
    assertThat(ended.stateRank()).isEqualTo(dev.kairos.core.model.TriggerState.SUCCESS.rank());
    assertThat(ended.fireMs()).isEqualTo(5);
    assertThat(ended.attempt()).isEqualTo(1);
    assertThat(ended.scheduleVersion()).isEqualTo(3);
    assertThat(ended.node()).isEqualTo("node-1");
    assertThat(ended.term()).isEqualTo(7);
    assertThat(ended.slot()).isEqualTo("2");
    assertThat(ended.executor()).isEqualTo("exec-1");
    assertThat(ended.message()).isEqualTo("ok");
    assertThat(ended.claimedMs()).isEqualTo(1);
    assertThat(ended.dispatchedMs()).isEqualTo(4);
    assertThat(ended.startedMs()).isEqualTo(6);
    assertThat(ended.endedMs()).isEqualTo(8);
    assertThat(ended.lateEndedMs()).isNull();
  }

  @Test
  void aLateEventKeepsItsResultAsideAndChangesNoState() {
    var late =
        (SyncEvent.TriggerChange)
            parser.parse(
                3,
                "12-0",
                Map.of(
                    "type", "TRIGGER_LATE",
                    "triggerId", "j:5",
                    "jobId", "j",
                    "fireMs", "5",
                    "state", "SUCCESS",
                    "executor", "exec-1",
                    "endedMs", "30",
                    "message", "finally",
                    "ms", "30"));
    assertThat(late.state()).isNull();
    assertThat(late.stateRank()).isEqualTo(EventParser.NO_STATE_RANK);
    assertThat(late.lateEndedMs()).isEqualTo(30);
    assertThat(late.lateMessage()).isEqualTo("finally");
    assertThat(late.endedMs()).isNull();
  }

  @Test
  void eachTransitionSetsItsOwnTimestamp() {
    var claimed =
        (SyncEvent.TriggerChange)
            parser.parse(
                3,
                "10-0",
                Map.of(
                    "type",
                    "TRIGGER_CLAIMED",
                    "triggerId",
                    "j:5",
                    "jobId",
                    "j",
                    "state",
                    "CLAIMED",
                    "fireMs",
                    "5",
                    "ms",
                    "9"));
    assertThat(claimed.claimedMs()).isEqualTo(9);
    assertThat(claimed.stateRank()).isZero();
    var running =
        (SyncEvent.TriggerChange)
            parser.parse(
                3,
                "11-0",
                Map.of(
                    "type",
                    "TRIGGER_UPDATED",
                    "triggerId",
                    "j:5",
                    "jobId",
                    "j",
                    "state",
                    "RUNNING",
                    "ts",
                    "12"));
    assertThat(running.startedMs()).isEqualTo(12);
    assertThat(running.claimedMs()).isNull();
  }

  @Test
  void anEndCarriesTheDispatchAndStartTimesItsRecordHas() {
    var end =
        (SyncEvent.TriggerChange)
            parser.parse(
                3,
                "12-0",
                Map.of(
                    "type", "TRIGGER_UPDATED",
                    "triggerId", "j:5",
                    "jobId", "j",
                    "state", "SUCCESS",
                    "endedMs", "30",
                    "dispatchedMs", "14",
                    "startedMs", "12",
                    "late", "0",
                    "ts", "30"));
    assertThat(end.endedMs()).isEqualTo(30);
    assertThat(end.dispatchedMs()).isEqualTo(14);
    assertThat(end.startedMs()).isEqualTo(12);
  }

  @Test
  void aLateResultNeverChangesStateEndOrMessage() {
    var late =
        (SyncEvent.TriggerChange)
            parser.parse(
                0,
                "20-0",
                Map.of(
                    "type",
                    "TRIGGER_UPDATED",
                    "triggerId",
                    "j:5",
                    "jobId",
                    "j",
                    "state",
                    "LOST",
                    "endedMs",
                    "20",
                    "message",
                    "late ok",
                    "late",
                    "1",
                    "ts",
                    "20"));
    assertThat(late.state()).isNull();
    assertThat(late.endedMs()).isNull();
    assertThat(late.message()).isNull();
    assertThat(late.lateMessage()).isEqualTo("late ok");
  }

  @Test
  void unknownTypesAndBadStatesAreReportedNotThrown() {
    assertThat(parser.parse(0, "1-0", Map.of("type", "NEW_THING")))
        .isInstanceOf(SyncEvent.Unknown.class);
    assertThat(
            parser.parse(
                0,
                "1-1",
                Map.of(
                    "type", "TRIGGER_UPDATED", "triggerId", "t", "jobId", "j", "state", "WEIRD")))
        .isInstanceOf(SyncEvent.Unknown.class);
  }
}
