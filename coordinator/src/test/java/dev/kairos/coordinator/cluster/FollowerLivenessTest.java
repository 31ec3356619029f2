package dev.kairos.coordinator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FollowerLivenessTest {

  private static final long TIMEOUT = 3_000;

  private final AtomicLong now = new AtomicLong(1_000_000);
  private final FollowerLiveness liveness = new FollowerLiveness(TIMEOUT, now::get);
  private final Member self = new Member("n1", "i1", "a:1", 0);
  private final Member b = new Member("n2", "i2", "a:2", 0);
  private final Member c = new Member("n3", "i3", "a:3", 0);

  @Test
  void aFollowerSilentForTheTimeoutIsDeclaredDeadOnceAndRevivesWhenItAnswers() {
    liveness.elected(List.of(self, b, c), null);
    now.addAndGet(TIMEOUT - 1);
    liveness.answered(c);
    assertThat(liveness.expire(List.of(self, b, c), "n1")).isEmpty();

    now.addAndGet(1);
    assertThat(liveness.expire(List.of(self, b, c), "n1")).containsExactly(b);
    assertThat(liveness.expire(List.of(self, b, c), "n1")).as("declared once").isEmpty();
    assertThat(liveness.isResponsive("n2")).isFalse();
    assertThat(liveness.isResponsive("n3")).isTrue();
    assertThat(liveness.isResponsive("n1")).isTrue();

    liveness.answered(b);
    assertThat(liveness.isResponsive("n2")).isTrue();
  }

  @Test
  void theLeaderConfirmedDownAtElectionIsDeadAtOnce() {
    liveness.elected(List.of(self, b, c), new LeaderRecord(4, "n2", "i2", "a:2"));
    assertThat(liveness.isResponsive("n2")).isFalse();
    assertThat(liveness.isResponsive("n3")).isTrue();
  }

  @Test
  void aConfirmedDownLeaderThatRestartedAsANewIncarnationIsNotDead() {
    Member restarted = new Member("n2", "i2-new", "a:2", 0);
    liveness.elected(List.of(self, restarted, c), new LeaderRecord(4, "n2", "i2", "a:2"));
    assertThat(liveness.isResponsive("n2")).isTrue();
  }

  @Test
  void aNewIncarnationGetsAFullTimeoutOfGrace() {
    liveness.elected(List.of(self, b), null);
    now.addAndGet(TIMEOUT);
    assertThat(liveness.expire(List.of(self, b), "n1")).containsExactly(b);

    Member restarted = new Member("n2", "i2-new", "a:2", 0);
    assertThat(liveness.expire(List.of(self, restarted), "n1")).isEmpty();
    assertThat(liveness.isResponsive("n2")).isTrue();
    now.addAndGet(TIMEOUT);
    assertThat(liveness.expire(List.of(self, restarted), "n1")).containsExactly(restarted);
  }

  @Test
  void aNodeThatDoesNotLeadDeclaresNobodyDead() {
    liveness.elected(List.of(self, b), null);
    liveness.revoked();
    now.addAndGet(10 * TIMEOUT);
    assertThat(liveness.expire(List.of(self, b), "n1")).isEmpty();
    assertThat(liveness.isResponsive("n2")).isTrue();
  }
}
