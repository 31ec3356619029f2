package dev.kairos.node.cluster.drain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.coordinator.failover.NodeHoldings;
import dev.kairos.devinfra.Poll;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The order of a drain's steps and its outcomes, over scripted steps (pure sequencing logic). */
class NodeDrainTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  /** Steps that record what was called and answer from settable state. */
  private static final class ScriptedSteps implements DrainSteps {
    final List<String> calls = new CopyOnWriteArrayList<>();
    final AtomicInteger others = new AtomicInteger(2);
    final AtomicBoolean leaderElsewhere = new AtomicBoolean(true);
    final AtomicLong inflight = new AtomicLong(3);
    final AtomicLong wheel = new AtomicLong(5);
    final AtomicBoolean member = new AtomicBoolean(true);
    volatile boolean quiesced;
    volatile boolean marked;

    @Override
    public String node() {
      return "n1";
    }

    @Override
    public int otherServingMembers() {
      return others.get();
    }

    @Override
    public void resign() {
      calls.add("resign");
    }

    @Override
    public boolean leaderElsewhere() {
      return leaderElsewhere.get();
    }

    @Override
    public void quiesceFiring() {
      calls.add("quiesce");
      quiesced = true;
      inflight.set(0); // the sends already started are acknowledged
    }

    @Override
    public boolean firingQuiet() {
      return quiesced;
    }

    @Override
    public void markDraining() {
      if (!marked) {
        calls.add("mark");
        marked = true;
        assertThat(inflight.get()).as("marked only once nothing is inflight").isZero();
      }
      wheel.set(0); // the leader moved the wheel
    }

    @Override
    public NodeHoldings.Held held() {
      long w = wheel.get();
      return new NodeHoldings.Held("n1", w, inflight.get(), w > 0 ? 1 : 0);
    }

    @Override
    public void leave() {
      calls.add("leave");
      member.set(false);
    }

    @Override
    public boolean isMember() {
      return member.get();
    }
  }

  private final ScriptedSteps steps = new ScriptedSteps();
  private final AtomicInteger exits = new AtomicInteger();
  private NodeDrain drain;

  private NodeDrain drain(Duration timeout) {
    drain = new NodeDrain(steps, timeout, System::currentTimeMillis, exits::incrementAndGet);
    drain.start();
    return drain;
  }

  @AfterEach
  void close() {
    if (drain != null) {
      drain.close();
    }
  }

  @Test
  void stepsRunInOrderResignQuiesceMarkLeaveThenDrainedAndExit() {
    NodeDrain drain = drain(WAIT);
    assertThat(drain.status().phase()).isEqualTo(DrainPhase.SERVING);

    DrainStatus asked = drain.request(true);

    assertThat(asked.phase()).isEqualTo(DrainPhase.RESIGNING);
    Poll.until(WAIT, "DRAINED", () -> drain.status().phase() == DrainPhase.DRAINED);
    assertThat(steps.calls).containsExactly("resign", "quiesce", "mark", "leave");
    assertThat(exits.get()).as("exited once").isEqualTo(1);
    assertThat(drain.status().finishedMs()).isGreaterThanOrEqualTo(asked.startedMs());
    assertThat(drain.status().wheelEntries()).isZero();
  }

  @Test
  void theOnlyServingMemberIsRefusedAndKeepsServing() {
    steps.others.set(0);
    NodeDrain drain = drain(WAIT);

    assertThatThrownBy(() -> drain.request(false))
        .isInstanceOf(DrainRefusedException.class)
        .hasMessageContaining("n1 is the only serving member");
    assertThat(drain.status().phase()).isEqualTo(DrainPhase.SERVING);
    assertThat(steps.calls).isEmpty();
  }

  @Test
  void aStepPastTheTimeoutFailsTheDrainAndAskingAgainResumesIt() {
    steps.leaderElsewhere.set(false); // nobody takes over leadership
    NodeDrain drain = drain(Duration.ofMillis(300));

    drain.request(false);

    Poll.until(WAIT, "FAILED", () -> drain.status().phase() == DrainPhase.FAILED);
    assertThat(drain.status().message()).contains("RESIGNING").contains("another member leads");
    assertThat(steps.calls).containsExactly("resign");

    steps.leaderElsewhere.set(true);
    assertThat(drain.request(false).phase()).isEqualTo(DrainPhase.RESIGNING);
    Poll.until(WAIT, "DRAINED", () -> drain.status().phase() == DrainPhase.DRAINED);
    assertThat(steps.calls).containsExactly("resign", "resign", "quiesce", "mark", "leave");
    assertThat(exits.get()).as("not asked to exit").isZero();
  }

  @Test
  void askingAgainWhileDrainingChangesNothingButMayAddTheExit() {
    steps.leaderElsewhere.set(false);
    NodeDrain drain = drain(WAIT);
    drain.request(false);

    DrainStatus again = drain.request(true);

    assertThat(again.phase()).isEqualTo(DrainPhase.RESIGNING);
    assertThat(again.exitWhenDrained()).isTrue();
    steps.leaderElsewhere.set(true);
    Poll.until(WAIT, "DRAINED", () -> drain.status().phase() == DrainPhase.DRAINED);
    assertThat(steps.calls).containsExactly("resign", "quiesce", "mark", "leave");
    assertThat(exits.get()).isEqualTo(1);
  }
}
