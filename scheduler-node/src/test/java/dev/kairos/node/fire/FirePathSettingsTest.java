package dev.kairos.node.fire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.node.cluster.TimingParameters;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FirePathSettingsTest {

  @Test
  void unsetPropertiesGiveTheDefaults() {
    assertThat(new FireProperties().toSettings(TimingParameters.defaults()))
        .isEqualTo(FirePathSettings.defaults());
    assertThat(FirePathSettings.defaults())
        .isEqualTo(
            new FirePathSettings(
                FirePathSettings.DEFAULT_BATCH_SIZE,
                FirePathSettings.DEFAULT_DISPATCH_THREADS,
                FirePathSettings.DEFAULT_ACK_THREADS,
                FirePathSettings.DEFAULT_MAX_PENDING,
                FirePathSettings.DEFAULT_PRE_READ,
                FirePathSettings.DEFAULT_RECONCILE_INTERVAL,
                FirePathSettings.DEFAULT_SWEEP_INTERVAL,
                FirePathSettings.DEFAULT_RESEND_AFTER,
                FirePathSettings.DEFAULT_MAX_UNACKED_SENDS,
                FirePathSettings.DEFAULT_NO_EXECUTOR_GRACE,
                FirePathSettings.DEFAULT_ACK_LINGER,
                FirePathSettings.DEFAULT_WHEEL_TICK,
                FirePathSettings.DEFAULT_PRE_DISPATCH));
  }

  @Test
  void toBuilderKeepsEverySetting() {
    FirePathSettings tuned =
        new FirePathSettings(
            1,
            2,
            3,
            4,
            Duration.ofSeconds(6),
            Duration.ofMillis(700),
            Duration.ofMillis(800),
            Duration.ofSeconds(9),
            10,
            Duration.ofSeconds(2),
            Duration.ofMillis(300),
            Duration.ofMillis(10),
            Duration.ofSeconds(1));
    assertThat(tuned.toBuilder().build()).isEqualTo(tuned);
    assertThat(tuned.toBuilder().maxUnackedSends(11).build().maxUnackedSends()).isEqualTo(11);
  }

  @Test
  void theBuilderIsCheckedLikeTheConstructor() {
    assertThatThrownBy(() -> FirePathSettings.builder().preDispatch(Duration.ofSeconds(5)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("preDispatch");
    assertThatThrownBy(() -> FirePathSettings.builder().resendAfter(Duration.ofSeconds(1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shorter than the inflight re-send delay");
  }
}
