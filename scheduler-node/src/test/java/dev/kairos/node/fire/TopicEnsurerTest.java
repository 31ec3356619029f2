package dev.kairos.node.fire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.error.KairosException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TopicEnsurerTest {

  private final AtomicLong nanos = new AtomicLong();
  private final AtomicInteger creations = new AtomicInteger();
  private final AtomicBoolean fail = new AtomicBoolean();
  private final TopicEnsurer topics =
      new TopicEnsurer(
          topic -> {
            creations.incrementAndGet();
            if (fail.get()) {
              throw new KairosException("no broker");
            }
          },
          Duration.ofSeconds(5),
          nanos::get);

  @Test
  void aTopicIsCreatedOnceThenKnown() {
    topics.ensure("t");
    topics.ensure("t");
    assertThat(creations).hasValue(1);
    assertThat(topics.isKnown("t")).isTrue();
  }

  @Test
  void aFailedCreationIsNotRetriedBeforeTheBackOff() {
    fail.set(true);
    assertThatThrownBy(() -> topics.ensure("t")).hasMessageContaining("no broker");
    assertThatThrownBy(() -> topics.ensure("t")).hasMessageContaining("recently");
    assertThat(creations).hasValue(1);
    fail.set(false);
    nanos.addAndGet(Duration.ofSeconds(5).toNanos());
    topics.ensure("t");
    assertThat(creations).hasValue(2);
    assertThat(topics.isKnown("t")).isTrue();
  }
}
