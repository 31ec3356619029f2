package dev.kairos.protocol.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class EventsConsumerSettingsTest {

  private static final Duration SECOND = Duration.ofSeconds(1);

  private static EventsConsumerSettings settings(
      String group, String consumer, int batchSize, Duration poll, Duration idle, Duration every) {
    return new EventsConsumerSettings(group, consumer, batchSize, poll, idle, every);
  }

  @Test
  void validSettingsAreKeptAsGiven() {
    EventsConsumerSettings s = settings("g", "node-a", 1, SECOND, Duration.ofMillis(1), SECOND);
    assertThat(s.group()).isEqualTo("g");
    assertThat(s.consumer()).isEqualTo("node-a");
    assertThat(s.batchSize()).isEqualTo(1);
    assertThat(s.claimIdle()).isEqualTo(Duration.ofMillis(1));
  }

  @Test
  void namesMustBeSetAndNotBlank() {
    assertThatNullPointerException()
        .isThrownBy(() -> settings(null, "node-a", 1, SECOND, SECOND, SECOND))
        .withMessage("group");
    assertThatNullPointerException()
        .isThrownBy(() -> settings("g", null, 1, SECOND, SECOND, SECOND))
        .withMessage("consumer");
    assertRefused(() -> settings(" ", "node-a", 1, SECOND, SECOND, SECOND))
        .hasMessage("group must not be blank");
    assertRefused(() -> settings("g", "", 1, SECOND, SECOND, SECOND))
        .hasMessage("consumer must not be blank");
  }

  @Test
  void batchSizeMustBeAtLeastOne() {
    assertRefused(() -> settings("g", "node-a", 0, SECOND, SECOND, SECOND))
        .hasMessage("batchSize must be >= 1 but was 0");
  }

  @Test
  void everyDurationMustBePositiveAndIsNamed() {
    assertRefused(() -> settings("g", "node-a", 1, Duration.ZERO, SECOND, SECOND))
        .hasMessage("pollInterval must be positive but was PT0S");
    assertRefused(() -> settings("g", "node-a", 1, SECOND, Duration.ofMillis(-1), SECOND))
        .hasMessage("claimIdle must be positive but was PT-0.001S");
    assertRefused(() -> settings("g", "node-a", 1, SECOND, SECOND, null))
        .hasMessage("claimInterval must be positive but was null");
  }

  @Test
  void requirePositiveReturnsThePositiveValueAndNamesTheOther() {
    assertThat(EventsConsumerSettings.requirePositive(SECOND, "x")).isSameAs(SECOND);
    assertRefused(() -> EventsConsumerSettings.requirePositive(Duration.ZERO, "retryMax"))
        .hasMessageStartingWith("retryMax must be positive");
  }

  @Test
  void aReadersBuilderStartsFromItsDefaultsAndChecksWhenItBuilds() {
    TestBuilder builder = new TestBuilder("node-a");
    assertThat(builder.claimIdle(Duration.ofSeconds(9)).settings())
        .isEqualTo(settings("g", "node-a", 10, SECOND, Duration.ofSeconds(9), SECOND));
    EventsConsumerSettings other = settings("h", "node-b", 3, SECOND, SECOND, SECOND);
    assertThat(new TestBuilder("node-a").events(other).settings())
        .isEqualTo(settings("h", "node-a", 3, SECOND, SECOND, SECOND));
    TestBuilder invalid = new TestBuilder("node-a").batchSize(0); // no check until it builds
    assertRefused(invalid::settings).hasMessageContaining("batchSize");
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertRefused(
      ThrowingCallable call) {
    return assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class);
  }

  /** A reader's builder: its own defaults, the shared setters. */
  private static final class TestBuilder extends EventsConsumerSettings.Builder<TestBuilder> {
    TestBuilder(String consumer) {
      super(consumer);
      group("g").batchSize(10).pollInterval(SECOND).claimIdle(SECOND).claimInterval(SECOND);
    }
  }
}
