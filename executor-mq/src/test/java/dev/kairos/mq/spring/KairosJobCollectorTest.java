package dev.kairos.mq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.mq.executor.JobContext;
import dev.kairos.protocol.message.TriggerMessage;
import org.junit.jupiter.api.Test;

class KairosJobCollectorTest {

  private final KairosJobCollector collector = new KairosJobCollector();

  static class Good {
    @KairosJob("plain")
    public void plain() {}

    @KairosJob("withContext")
    public String withContext(JobContext context) {
      return "ran " + context.jobId();
    }
  }

  static class WrongArgument {
    @KairosJob("bad")
    public void bad(String params) {}
  }

  static class WrongReturn {
    @KairosJob("bad")
    public int bad() {
      return 1;
    }
  }

  static class MissingInit {
    @KairosJob(value = "job", init = "nope")
    public void job() {}
  }

  static class SameName {
    @KairosJob("plain")
    public void again() {}
  }

  @Test
  void findsEveryAnnotatedMethodAndTheReturnedTextBecomesTheMessage() throws Exception {
    collector.postProcessAfterInitialization(new Good(), "good");
    assertThat(collector.jobs()).containsOnlyKeys("plain", "withContext");
    TriggerMessage m =
        TriggerMessage.of(
            "job1:1000",
            "app",
            "withContext",
            1000,
            1,
            "",
            0,
            1,
            0,
            BlockStrategy.SERIAL_EXECUTION,
            1,
            1000);
    JobContext context = JobContext.of(m);
    collector.jobs().get("withContext").execute(context);
    assertThat(context.log().text()).isEqualTo("ran job1");
  }

  @Test
  void aBadSignatureFailsNamingTheBeanAndMethod() {
    assertThatThrownBy(() -> collector.postProcessAfterInitialization(new WrongArgument(), "w"))
        .hasMessageContaining("@KairosJob(\"bad\") on w.bad")
        .hasMessageContaining("no argument or one JobContext");
    assertThatThrownBy(() -> collector.postProcessAfterInitialization(new WrongReturn(), "r"))
        .hasMessageContaining("must return void or String");
    assertThatThrownBy(() -> collector.postProcessAfterInitialization(new MissingInit(), "m"))
        .hasMessageContaining("init method nope() does not exist");
  }

  @Test
  void aHandlerNameUsedTwiceFailsNamingBothMethods() {
    collector.postProcessAfterInitialization(new Good(), "good");
    assertThatThrownBy(() -> collector.postProcessAfterInitialization(new SameName(), "same"))
        .hasMessageContaining("declared twice: on good.plain and on same.again");
  }
}
