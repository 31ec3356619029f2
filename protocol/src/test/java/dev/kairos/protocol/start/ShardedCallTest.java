package dev.kairos.protocol.start;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.redis.RedisKeys;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShardedCallTest {

  /** A trigger id whose shard is the number after the dash. */
  private static int shardOf(String id) {
    return Integer.parseInt(id.substring(id.indexOf('-') + 1));
  }

  private static ShardedCall<String> call(List<String> group) {
    return ShardedCall.of(
        group,
        ShardedCallTest::shardOf,
        shard -> List.of(RedisKeys.triggerPrefix(shard)),
        (id, args) -> args.add(id),
        "600000",
        "50");
  }

  @Test
  void laysTheGroupOutShardByShardWithEachShardsKeysPrefixAndCount() {
    ShardedCall<String> call = call(List.of("a-7", "b-2", "c-7", "d-2", "e-5"));

    assertThat(call.keys())
        .containsExactly(
            RedisKeys.events(2),
            RedisKeys.openTriggers(2),
            RedisKeys.events(5),
            RedisKeys.openTriggers(5),
            RedisKeys.events(7),
            RedisKeys.openTriggers(7));
    assertThat(call.args())
        .containsExactly(
            "600000",
            "50",
            RedisKeys.triggerPrefix(2),
            "2",
            "b-2",
            "d-2",
            RedisKeys.triggerPrefix(5),
            "1",
            "e-5",
            RedisKeys.triggerPrefix(7),
            "2",
            "a-7",
            "c-7");
    assertThat(call.firstShard()).isEqualTo(2);
  }

  @Test
  void handsTheAnswersBackInTheGroupsOrder() {
    ShardedCall<String> call = call(List.of("a-7", "b-2", "c-7", "d-2", "e-5"));
    // The script answers in layout order: b, d, e, a, c.
    List<Object> replies =
        List.of(List.of("b-2"), List.of("d-2"), List.of("e-5"), List.of("a-7"), List.of("c-7"));

    List<String> answers = call.inGroupOrder(replies, reply -> (String) reply.get(0));

    assertThat(answers).containsExactly("a-7", "b-2", "c-7", "d-2", "e-5");
  }

  @Test
  void oneShardIsOneKeyPairAndTheOrderIsKept() {
    ShardedCall<String> call = call(List.of("x-3", "y-3"));

    assertThat(call.keys()).containsExactly(RedisKeys.events(3), RedisKeys.openTriggers(3));
    assertThat(call.args())
        .containsExactly("600000", "50", RedisKeys.triggerPrefix(3), "2", "x-3", "y-3");
    assertThat(call.inGroupOrder(List.of(List.of("x"), List.of("y")), r -> (String) r.get(0)))
        .containsExactly("x", "y");
  }

  @Test
  void aWrongNumberOfAnswersFailsTheCall() {
    ShardedCall<String> call = call(List.of("a-1", "b-2"));

    assertThatThrownBy(() -> call.inGroupOrder(List.of(List.of("a")), r -> r))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("2 triggers got 1 answers");
  }

  @Test
  void anEmptyGroupIsRefused() {
    assertThatThrownBy(() -> call(List.of())).isInstanceOf(IllegalArgumentException.class);
  }
}
