package dev.kairos.mq.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.protocol.message.TopicNames;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@RealInfra(rocketMq = true)
class TopicAdminIT {

  @Test
  void createsAHandlerTopicIdempotentlyAndNeverShrinksIt(EmbeddedRocketMq mq) {
    String topic = TopicNames.handlerTopic("admin-" + UUID.randomUUID(), "h");
    try (TopicAdmin admin = new TopicAdmin(mq.nameServerAddress(), "kairos")) {
      admin.start();
      long began = System.nanoTime();
      assertThat(admin.ensureTopic(topic, 4, Duration.ofSeconds(40))).isEqualTo(4);
      long firstMs = (System.nanoTime() - began) / 1_000_000;
      assertThat(admin.ensureTopic(topic, 4, Duration.ofSeconds(5))).isEqualTo(4);
      assertThat(admin.ensureTopic(topic, 2, Duration.ofSeconds(5))).isEqualTo(4);
      assertThat(admin.ensureTopic(topic, 6, Duration.ofSeconds(40))).isEqualTo(6);
      System.out.println("TopicAdmin: first route served after " + firstMs + " ms");
    }
  }
}
