package dev.kairos.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.alarm.AlarmKind;
import dev.kairos.core.alarm.AlarmRecipients;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.RetryBackoff;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerKind;
import dev.kairos.core.model.TriggerState;
import dev.kairos.protocol.adhoc.AdhocRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LifecyclePolicyTest {

  private static final long NOW = 1_000_000;
  private final LifecyclePolicy policy = new LifecyclePolicy(3, () -> 0.5);

  private static JobDefinition.Builder job() {
    return JobDefinition.builder("j").app("a").handler("h").fixedRate(1_000);
  }

  private static FinalEvent event(TriggerId id, TriggerState state, Long endedMs) {
    return new FinalEvent(id, state, Optional.ofNullable(endedMs));
  }

  private static Map<String, String> record(String... pairs) {
    Map<String, String> r = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      r.put(pairs[i], pairs[i + 1]);
    }
    return r;
  }

  @Test
  void aFailureWithRetriesLeftBecomesTheNextAttemptAfterTheBackoff() {
    JobDefinition j =
        job().retryCount(3).retryBackoff(RetryBackoff.exponential(1_000, 10_000, 0.0)).build();
    TriggerId first = TriggerId.scheduled("j", 500);
    Reaction r =
        policy.decide(
            event(first.retry(1), TriggerState.FAIL, 900_000L),
            record("attempt", "2", "kind", "RETRY", "scheduleVersion", "4", "startedMs", "1"),
            Optional.of(j),
            NOW);

    AdhocRequest retry = r.retry().orElseThrow();
    assertThat(retry.triggerId()).isEqualTo(first.retry(2));
    assertThat(retry.kind()).isEqualTo(TriggerKind.RETRY);
    assertThat(retry.attempt()).isEqualTo(3);
    assertThat(retry.dueMs()).isEqualTo(900_000 + 2_000); // exponential: 1 s, then 2 s
    assertThat(retry.parentTriggerId()).contains(first.retry(1));
    assertThat(retry.scheduleVersion()).hasValue(4);
    assertThat(r.alarm()).isEmpty();
    assertThat(r.rearm()).isEmpty();
  }

  @Test
  void everyRetryableStateRetriesAndTheOthersNever() {
    JobDefinition j = job().retryCount(1).build();
    TriggerId id = TriggerId.scheduled("j", 500);
    for (TriggerState s : TriggerState.values()) {
      if (!s.isTerminal()) {
        continue;
      }
      Reaction r = policy.decide(event(id, s, null), record("attempt", "1"), Optional.of(j), NOW);
      assertThat(r.retry().isPresent())
          .as("state %s", s)
          .isEqualTo(LifecyclePolicy.RETRYABLE.contains(s));
    }
    assertThat(LifecyclePolicy.RETRYABLE)
        .containsExactlyInAnyOrder(
            TriggerState.NO_EXECUTOR,
            TriggerState.FAIL,
            TriggerState.TIMEOUT,
            TriggerState.LOST,
            TriggerState.EXPIRED);
  }

  @Test
  void aManualTriggersRetryKeepsItsParamsOverride() {
    JobDefinition j = job().retryCount(1).build();
    TriggerId manual = TriggerId.manual("j", 5, "n");
    Reaction r =
        policy.decide(
            event(manual, TriggerState.TIMEOUT, 10L),
            record("attempt", "1", "kind", "MANUAL", "params", "{\"x\":1}"),
            Optional.of(j),
            NOW);
    assertThat(r.retry().orElseThrow().paramsOverride()).contains("{\"x\":1}");
    assertThat(r.retry().orElseThrow().scheduleVersion()).isEmpty();
  }

  @Test
  void exhaustedRetriesRaiseOneAlarmAndCreateNoAttempt() {
    JobDefinition j = job().retryCount(2).build();
    TriggerId last = TriggerId.scheduled("j", 500).retry(2);
    Reaction r =
        policy.decide(
            event(last, TriggerState.LOST, null),
            record("attempt", "3", "message", "executor lease expired"),
            Optional.of(j),
            NOW);
    assertThat(r.retry()).isEmpty();
    assertThat(r.alarm().orElseThrow().kind()).isEqualTo(AlarmKind.TRIGGER_FAILED);
    assertThat(r.alarm().orElseThrow().subject()).isEqualTo("j");
    assertThat(r.alarm().orElseThrow().details())
        .containsEntry("triggerId", last.value())
        .containsEntry("attempt", "3")
        .containsEntry("message", "executor lease expired");
  }

  @Test
  void aFailedJobsAlarmGoesToItsOwnRecipientsToo() {
    JobDefinition j =
        job()
            .alarmEmails(List.of("owner@example.com"))
            .alarmWebhooks(List.of("https://hooks.example.com/j"))
            .build();
    Reaction r =
        policy.decide(
            event(TriggerId.scheduled("j", 500), TriggerState.FAIL, 900_000L),
            record("attempt", "1"),
            Optional.of(j),
            NOW);
    AlarmRecipients to = r.alarm().orElseThrow().recipients();
    assertThat(to.emails()).containsExactly("owner@example.com");
    assertThat(to.webhooks()).containsExactly("https://hooks.example.com/j");

    Reaction plain =
        policy.decide(
            event(TriggerId.scheduled("j", 600), TriggerState.FAIL, 900_000L),
            record("attempt", "1"),
            Optional.of(job().build()),
            NOW);
    assertThat(plain.alarm().orElseThrow().recipients().isEmpty()).isTrue();
  }

  @Test
  void anExpiredRecordFallsBackToTheAttemptInTheId() {
    JobDefinition j = job().retryCount(2).build();
    TriggerId second = TriggerId.scheduled("j", 500).retry(1);
    Reaction r =
        policy.decide(event(second, TriggerState.FAIL, null), Map.of(), Optional.of(j), NOW);
    assertThat(r.retry().orElseThrow().attempt()).isEqualTo(3);
  }

  @Test
  void successTriggersEachChildOnceWithDeterministicIdsUpToTheDepthBound() {
    JobDefinition j = job().childJobIds(List.of("c1", "c2")).build();
    TriggerId id = TriggerId.scheduled("j", 500);
    Reaction r =
        policy.decide(
            event(id, TriggerState.SUCCESS, 7L), record("depth", "2"), Optional.of(j), NOW);
    assertThat(r.children())
        .extracting(AdhocRequest::triggerId)
        .containsExactly(id.child("c1"), id.child("c2"));
    assertThat(r.children()).allSatisfy(c -> assertThat(c.depth()).isEqualTo(3));
    assertThat(r.children()).allSatisfy(c -> assertThat(c.parentTriggerId()).contains(id));

    Reaction tooDeep =
        policy.decide(
            event(id, TriggerState.SUCCESS, 7L), record("depth", "3"), Optional.of(j), NOW);
    assertThat(tooDeep.children()).isEmpty();
    assertThat(tooDeep.skippedChildren()).isEqualTo(2);
  }

  @Test
  void failureTriggersNoChild() {
    JobDefinition j = job().childJobIds(List.of("c1")).build();
    Reaction r =
        policy.decide(
            event(TriggerId.scheduled("j", 1), TriggerState.FAIL, 7L),
            Map.of(),
            Optional.of(j),
            NOW);
    assertThat(r.children()).isEmpty();
  }

  @Test
  void fixedDelayReArmsFromTheEndAfterARunAndFromNowOtherwise() {
    JobDefinition j = job().fixedDelay(2_000).build();
    TriggerId id = TriggerId.scheduled("j", 500);
    Reaction ran =
        policy.decide(
            event(id, TriggerState.SUCCESS, 900L),
            record("scheduleVersion", "7", "startedMs", "600"),
            Optional.of(j),
            NOW);
    assertThat(ran.rearm()).contains(new Reaction.Rearm("j", 7, 500, 900 + 2_000));

    Reaction notRun =
        policy.decide(
            event(id, TriggerState.EXPIRED, null),
            record("scheduleVersion", "7"),
            Optional.of(j),
            NOW);
    assertThat(notRun.rearm()).contains(new Reaction.Rearm("j", 7, 500, NOW + 2_000));
  }

  @Test
  void fixedDelayWaitsForTheRetryChainAndManualTriggersNeverReArm() {
    JobDefinition j = job().fixedDelay(2_000).retryCount(1).build();
    TriggerId id = TriggerId.scheduled("j", 500);
    Reaction failing =
        policy.decide(
            event(id, TriggerState.FAIL, 900L),
            record("scheduleVersion", "7", "attempt", "1", "startedMs", "600"),
            Optional.of(j),
            NOW);
    assertThat(failing.retry()).isPresent();
    assertThat(failing.rearm()).as("re-armed when the retry ends").isEmpty();

    Reaction lastAttempt =
        policy.decide(
            event(id.retry(1), TriggerState.FAIL, 5_000L),
            record("scheduleVersion", "7", "attempt", "2", "kind", "RETRY", "startedMs", "4000"),
            Optional.of(j),
            NOW);
    assertThat(lastAttempt.rearm()).contains(new Reaction.Rearm("j", 7, 500, 7_000));

    Reaction manual =
        policy.decide(
            event(TriggerId.manual("j", 1, "n"), TriggerState.SUCCESS, 5_000L),
            record("kind", "MANUAL", "startedMs", "4000"),
            Optional.of(j),
            NOW);
    assertThat(manual.rearm()).isEmpty();
  }

  @Test
  void aDeletedJobLeadsToNothing() {
    Reaction r =
        policy.decide(
            event(TriggerId.scheduled("j", 1), TriggerState.FAIL, 7L),
            record("attempt", "1"),
            Optional.empty(),
            NOW);
    assertThat(r).isEqualTo(Reaction.NONE);
  }
}
