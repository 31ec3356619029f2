package dev.kairos.protocol.message;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.junit.jupiter.api.Test;

class ProducerDefaultsTest {

  /** A producer of its own client instance: accumulators are shared per instance. */
  private static DefaultMQProducer producer(String instance) {
    DefaultMQProducer producer = new DefaultMQProducer("kairos_test_" + instance);
    producer.setInstanceName("producer-defaults-test-" + instance);
    return producer;
  }

  @Test
  void theAccumulatorsGuardThreadsWakeTwiceASecondInsteadOfEvery5Ms() {
    DefaultMQProducer plain = producer("plain");
    plain.initProduceAccumulator(); // what start() does, without a NameServer
    assertThat(plain.getBatchMaxDelayMs()).isEqualTo(10);

    DefaultMQProducer kairos = producer("kairos");
    assertThat(ProducerDefaults.apply(kairos)).isSameAs(kairos);
    kairos.initProduceAccumulator();

    assertThat(kairos.getBatchMaxDelayMs()).isEqualTo(1_000);
    assertThat(kairos.getAutoBatch()).isFalse();
  }
}
