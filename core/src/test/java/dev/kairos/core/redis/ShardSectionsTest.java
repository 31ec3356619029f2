package dev.kairos.core.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShardSectionsTest {

  private record Req(String id, int shard) {}

  @Test
  void splitsByShardAscendingAndKeepsOrderWithinAShard() {
    var requests =
        List.of(
            new Req("a", 7), new Req("b", 2), new Req("c", 7), new Req("d", 2), new Req("e", 5));

    ShardSections<Req> sections = ShardSections.of(requests, Req::shard);

    assertThat(sections.size()).isEqualTo(3);
    assertThat(List.of(sections.shard(0), sections.shard(1), sections.shard(2)))
        .containsExactly(2, 5, 7);
    assertThat(sections.group(0)).extracting(Req::id).containsExactly("b", "d");
    assertThat(sections.group(1)).extracting(Req::id).containsExactly("e");
    assertThat(sections.group(2)).extracting(Req::id).containsExactly("a", "c");
  }

  @Test
  void putsRepliesInSectionOrderBackInRequestOrder() {
    var requests =
        List.of(
            new Req("a", 7), new Req("b", 2), new Req("c", 7), new Req("d", 2), new Req("e", 5));
    ShardSections<Req> sections = ShardSections.of(requests, Req::shard);

    // What a script answers: section by section, each in its group's order.
    List<String> replies = List.of("b!", "d!", "e!", "a!", "c!");

    assertThat(sections.inRequestOrder(replies)).containsExactly("a!", "b!", "c!", "d!", "e!");
  }

  @Test
  void refusesAReplyCountThatDoesNotMatchTheRequests() {
    ShardSections<Req> sections = ShardSections.of(List.of(new Req("a", 1)), Req::shard);

    assertThatThrownBy(() -> sections.inRequestOrder(List.of("x", "y")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected 1 replies");
  }
}
