package dev.kairos.core.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.timer.TimingWheel.AddResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TimingWheelTest {

  private static TimedEntry<String> entry(String id, long fireMs) {
    return new TimedEntry<>(id, fireMs, "payload-" + id);
  }

  private static List<String> ids(List<TimedEntry<String>> entries) {
    return entries.stream().map(TimedEntry::triggerId).toList();
  }

  @Test
  void handsOutDueEntriesEarliestFirst() {
    TimingWheel<String> wheel = new TimingWheel<>(0, 100);
    assertThat(wheel.add(entry("c", 30))).isEqualTo(AddResult.SCHEDULED);
    assertThat(wheel.add(entry("a", 10))).isEqualTo(AddResult.SCHEDULED);
    assertThat(wheel.add(entry("b", 20))).isEqualTo(AddResult.SCHEDULED);
    assertThat(wheel.nextFireMs()).hasValue(10);

    assertThat(wheel.advanceTo(9)).isEmpty();
    assertThat(ids(wheel.advanceTo(15))).containsExactly("a");
    assertThat(wheel.size()).isEqualTo(2);
    List<TimedEntry<String>> rest = wheel.advanceTo(30);
    assertThat(ids(rest)).containsExactly("b", "c");
    assertThat(rest.get(1).payload()).isEqualTo("payload-c");
    assertThat(wheel.size()).isZero();
    assertThat(wheel.nextFireMs()).isEmpty();
  }

  @Test
  void sameMillisecondBurstComesOutTogetherOrderedById() {
    TimingWheel<String> wheel = new TimingWheel<>(0, 20_000);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      String id = String.format("job-%05d:1000", i);
      expected.add(id);
      wheel.add(entry(id, 1_000));
    }
    // Insert order differs from id order; output must not.
    assertThat(wheel.advanceTo(999)).isEmpty();
    assertThat(ids(wheel.advanceTo(1_000))).containsExactlyElementsOf(expected);
    assertThat(wheel.size()).isZero();
  }

  @Test
  void entryAlreadyDueIsHandedBackInsteadOfStored() {
    TimingWheel<String> wheel = new TimingWheel<>(0, 100);
    wheel.advanceTo(100);
    assertThat(wheel.add(entry("now", 100))).isEqualTo(AddResult.DUE);
    assertThat(wheel.add(entry("past", 42))).isEqualTo(AddResult.DUE);
    assertThat(wheel.add(entry("next-ms", 101))).isEqualTo(AddResult.SCHEDULED);
    assertThat(wheel.size()).isEqualTo(1);
    assertThat(wheel.contains("now")).isFalse();
  }

  @Test
  void removedEntryNeverFires() {
    TimingWheel<String> wheel = new TimingWheel<>(0, 100);
    wheel.add(entry("keep", 10));
    wheel.add(entry("drop", 10));
    assertThat(wheel.remove("drop")).isEqualTo(entry("drop", 10));
    assertThat(wheel.remove("drop")).isNull();
    assertThat(wheel.remove("never-added")).isNull();
    assertThat(ids(wheel.advanceTo(10))).containsExactly("keep");
  }

  @Test
  void reAddingATriggerReplacesItsPendingEntry() {
    TimingWheel<String> wheel = new TimingWheel<>(0, 100);
    wheel.add(entry("t", 50));
    wheel.add(new TimedEntry<>("t", 80, "moved"));
    assertThat(wheel.size()).isEqualTo(1);
    assertThat(wheel.nextFireMs()).hasValue(80);
    assertThat(wheel.advanceTo(60)).isEmpty();
    assertThat(wheel.advanceTo(80)).containsExactly(new TimedEntry<>("t", 80, "moved"));

    // After it fired, the same id may be scheduled again (e.g. re-read from Redis) and fires again.
    assertThat(wheel.add(entry("t", 90))).isEqualTo(AddResult.SCHEDULED);
    assertThat(ids(wheel.advanceTo(90))).containsExactly("t");
  }

  @Test
  void fullWheelRejectsAndCountsButStillAcceptsReplacements() {
    TimingWheel<String> wheel = new TimingWheel<>(0, 3);
    wheel.add(entry("a", 10));
    wheel.add(entry("b", 20));
    wheel.add(entry("c", 30));
    assertThat(wheel.add(entry("d", 40))).isEqualTo(AddResult.REJECTED);
    assertThat(wheel.add(entry("e", 5))).isEqualTo(AddResult.REJECTED);
    assertThat(wheel.rejectedCount()).isEqualTo(2);
    assertThat(wheel.contains("d")).isFalse();
    // Replacing a pending id does not grow the wheel, so it is allowed when full.
    assertThat(wheel.add(entry("c", 35))).isEqualTo(AddResult.SCHEDULED);
    assertThat(wheel.size()).isEqualTo(3);

    wheel.advanceTo(10);
    assertThat(wheel.add(entry("d", 40))).isEqualTo(AddResult.SCHEDULED);
    assertThat(wheel.rejectedCount()).isEqualTo(2);
  }

  @Test
  void timeNeverMovesBackwards() {
    TimingWheel<String> wheel = new TimingWheel<>(0, 10);
    wheel.advanceTo(100);
    wheel.advanceTo(50);
    assertThat(wheel.currentMs()).isEqualTo(100);
    assertThat(wheel.add(entry("x", 70))).isEqualTo(AddResult.DUE);
  }

  @Test
  void rejectsNonPositiveBound() {
    assertThatThrownBy(() -> new TimingWheel<String>(0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxPending");
  }

  @Test
  void concurrentAddsRemovesAndAdvanceHandOutEachEntryAtMostOnce() throws Exception {
    TimingWheel<String> wheel = new TimingWheel<>(0, 1_000_000);
    int writers = 3;
    int perWriter = 20_000;
    Set<String> removed = ConcurrentHashMap.newKeySet();
    Set<String> rejectedAsDue = ConcurrentHashMap.newKeySet();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int writer = w;
      Thread t =
          new Thread(
              () -> {
                try {
                  go.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return;
                }
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < perWriter; i++) {
                  String id = writer + "-" + i;
                  if (wheel.add(entry(id, random.nextLong(1, 2_000))) == AddResult.DUE) {
                    rejectedAsDue.add(id);
                  }
                  if (i % 7 == 0 && wheel.remove(id) != null) {
                    removed.add(id);
                  }
                }
              },
              "wheel-writer-" + w);
      threads.add(t);
      t.start();
    }
    List<String> handedOut = new ArrayList<>();
    AtomicInteger now = new AtomicInteger();
    go.countDown();
    while (threads.stream().anyMatch(Thread::isAlive)) {
      handedOut.addAll(ids(wheel.advanceTo(Math.min(now.incrementAndGet() / 50, 1_000))));
    }
    for (Thread t : threads) {
      t.join();
    }
    handedOut.addAll(ids(wheel.advanceTo(2_000)));

    Set<String> unique = new HashSet<>(handedOut);
    assertThat(unique).as("no entry handed out twice").hasSize(handedOut.size());
    Set<String> removedButHandedOut = new HashSet<>(unique);
    removedButHandedOut.retainAll(removed); // AssertJ's containment check is O(n × m) here
    assertThat(removedButHandedOut).as("removed entries handed out").isEmpty();
    assertThat(handedOut.size() + removed.size() + rejectedAsDue.size())
        .isEqualTo(writers * perWriter);
    assertThat(wheel.size()).isZero();
  }
}
