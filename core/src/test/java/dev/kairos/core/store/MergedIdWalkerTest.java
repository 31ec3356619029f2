package dev.kairos.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The k-way merge over shards: order, completeness, cursors and how much it reads. */
class MergedIdWalkerTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  /** Shards as sorted sets; counts the reads like the Redis commands they stand for. */
  private static final class Shards implements MergedIdWalker.ShardReader {
    final List<TreeSet<String>> sets = new ArrayList<>();
    int reads;

    Shards(int shards) {
      for (int s = 0; s < shards; s++) {
        sets.add(new TreeSet<>());
      }
    }

    void add(int shard, String id) {
      sets.get(shard).add(id);
    }

    TreeSet<String> all() {
      TreeSet<String> all = new TreeSet<>();
      sets.forEach(all::addAll);
      return all;
    }

    @Override
    public CompletableFuture<List<String>> read(int shard, String after, int limit) {
      reads++;
      TreeSet<String> set = sets.get(shard);
      return CompletableFuture.completedFuture(
          (after == null ? set : set.tailSet(after, false)).stream().limit(limit).toList());
    }
  }

  private static Shards randomShards(int shards, int ids, long seed) {
    Shards s = new Shards(shards);
    Random random = new Random(seed);
    for (int i = 0; i < ids; i++) {
      String id = "job-" + Integer.toString(random.nextInt(1_000_000), 36) + "-" + i;
      s.add(Math.floorMod(id.hashCode(), shards), id);
    }
    return s;
  }

  private static List<String> walkAll(MergedIdWalker walker, int page) {
    List<String> out = new ArrayList<>();
    while (!walker.exhausted()) {
      List<String> next = walker.next(page);
      out.addAll(next);
      if (next.size() < page) {
        assertThat(walker.exhausted()).as("a short page is the last").isTrue();
      }
    }
    return out;
  }

  @Test
  void pagesOfEveryShardComeOutInOneAscendingOrderEachIdOnce() {
    Shards shards = randomShards(16, 5_000, 1);
    MergedIdWalker walker = new MergedIdWalker(16, shards, null, TIMEOUT);

    assertThat(walkAll(walker, 50)).containsExactlyElementsOf(shards.all());
  }

  @Test
  void aCursorResumesStrictlyAfterItWhereverTheShardsStand() {
    Shards shards = randomShards(8, 2_000, 2);
    List<String> all = new ArrayList<>(shards.all());
    for (int cut : List.of(0, 1, 999, 1_998, 1_999)) {
      String cursor = all.get(cut);
      MergedIdWalker walker = new MergedIdWalker(8, shards, cursor, TIMEOUT);
      assertThat(walkAll(walker, 37)).containsExactlyElementsOf(all.subList(cut + 1, all.size()));
    }
    // A cursor that is no id (deleted since): the walk continues after where it would sort.
    MergedIdWalker walker = new MergedIdWalker(8, shards, all.get(500) + "-", TIMEOUT);
    assertThat(walker.next(1)).containsExactly(all.get(501));
  }

  @Test
  void walkingPageByPageWithCursorsSeesTheSameAsOneWalk() {
    Shards shards = randomShards(64, 3_000, 3);
    List<String> seen = new ArrayList<>();
    String cursor = null;
    while (true) {
      MergedIdWalker walker = new MergedIdWalker(64, shards, cursor, TIMEOUT);
      List<String> page = walker.next(51);
      seen.addAll(page.subList(0, Math.min(50, page.size())));
      if (page.size() <= 50) {
        break;
      }
      cursor = page.get(49);
    }
    assertThat(seen).containsExactlyElementsOf(shards.all());
  }

  @Test
  void aPageReadsAFewIdsPerShardNotAPageFromEachShard() {
    Shards shards = randomShards(64, 20_000, 4);
    MergedIdWalker walker = new MergedIdWalker(64, shards, null, TIMEOUT);

    assertThat(walker.next(51)).hasSize(51);

    // Evenly spread ids need about 2n/shards per shard: a round or two, far from 64 x 51.
    assertThat(walker.rounds()).isBetween(1, 3);
    assertThat(walker.idsRead()).isLessThan(64 * 12);
  }

  @Test
  void skewedShardsAreReadFurtherUntilThePageIsKnown() {
    Shards shards = new Shards(4);
    IntStream.range(0, 1_000).forEach(i -> shards.add(0, String.format("a-%04d", i)));
    shards.add(1, "b");
    shards.add(2, "c");
    MergedIdWalker walker = new MergedIdWalker(4, shards, null, TIMEOUT);

    List<String> page = walker.next(300);

    assertThat(page).hasSize(300).isSorted().allMatch(id -> id.startsWith("a-"));
    assertThat(walkAll(walker, 300)).hasSize(702).endsWith("b", "c");
  }

  @Test
  void emptyShardsAndAnEmptyIndexEndAtOnce() {
    Shards shards = new Shards(5);
    MergedIdWalker walker = new MergedIdWalker(5, shards, null, TIMEOUT);

    assertThat(walker.next(10)).isEmpty();
    assertThat(walker.exhausted()).isTrue();
    assertThat(walker.rounds()).isEqualTo(1);
  }

  @Test
  void skipPassesOverOffsetIdsWithoutReturningThem() {
    Shards shards = randomShards(8, 1_500, 5);
    List<String> all = new ArrayList<>(shards.all());
    MergedIdWalker walker = new MergedIdWalker(8, shards, null, TIMEOUT);

    assertThat(walker.skip(1_234)).isTrue();
    assertThat(walker.next(3)).containsExactlyElementsOf(all.subList(1_234, 1_237));
    assertThat(walker.skip(10_000)).isFalse();
    assertThat(walker.exhausted()).isTrue();
  }

  @Test
  void lastIsTheCursorToContinueFrom() {
    Shards shards = randomShards(3, 100, 6);
    List<String> all = new ArrayList<>(shards.all());
    MergedIdWalker walker = new MergedIdWalker(3, shards, null, TIMEOUT);
    assertThat(walker.last()).isNull();

    walker.next(10);

    assertThat(walker.last()).isEqualTo(all.get(9));
  }

  @Test
  void redisFailuresPassAsTheyAre() {
    MergedIdWalker failing =
        new MergedIdWalker(
            2,
            (shard, after, limit) ->
                CompletableFuture.failedFuture(new RedisConnectionException("down")),
            null,
            TIMEOUT);
    assertThatThrownBy(() -> failing.next(5)).isInstanceOf(RedisConnectionException.class);

    MergedIdWalker silent =
        new MergedIdWalker(
            2, (shard, after, limit) -> new CompletableFuture<>(), null, Duration.ofMillis(1));
    assertThatThrownBy(() -> silent.next(5)).isInstanceOf(RedisCommandTimeoutException.class);
  }
}
