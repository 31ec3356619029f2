package dev.kairos.drills.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The jobs {@link ScaleBench} has stored so far: indexes {@code 0..size-1} of its {@link ScaleMix},
 * each level's import start (the ONE_SHOT jobs' reference) and the FIXED_RATE jobs' stored creation
 * times (their phase), read back after each import. From these every stored job's fires in a window
 * are computed, never observed.
 */
final class ScaleStore {

  private record Level(long from, long to, long startMs) {}

  private final ScaleMix mix;
  private final List<Level> levels = new ArrayList<>();
  private final Map<Long, Long> anchors = new HashMap<>();

  ScaleStore(ScaleMix mix) {
    this.mix = mix;
  }

  ScaleMix mix() {
    return mix;
  }

  /** Jobs stored. */
  long size() {
    return levels.isEmpty() ? 0 : levels.get(levels.size() - 1).to;
  }

  /** Jobs {@code from..to-1} were imported from {@code startMs} on. */
  void added(long from, long to, long startMs) {
    if (from != size()) {
      throw new IllegalArgumentException("level starts at " + from + ", store holds " + size());
    }
    levels.add(new Level(from, to, startMs));
  }

  /** The FIXED_RATE jobs among {@code from..to-1}. */
  static List<String> fixedRateIds(long from, long to) {
    List<String> ids = new ArrayList<>();
    for (long i = from; i < to; i++) {
      if (ScaleMix.kind(i) == ScaleMix.Kind.FIXED_RATE) {
        ids.add(ScaleMix.id(i));
      }
    }
    return ids;
  }

  /** Stored creation times of FIXED_RATE jobs, by id. */
  void anchors(Map<String, Long> createdMs) {
    createdMs.forEach((id, ms) -> anchors.put(ScaleMix.index(id), ms));
  }

  /** Trigger ids ({@code <job>:<fireMs>}) of every stored job's fires in {@code [fromMs, toMs)}. */
  List<String> expectedFires(long fromMs, long toMs) {
    List<String> expected = new ArrayList<>();
    for (Level level : levels) {
      for (long i = level.from; i < level.to; i++) {
        String id = ScaleMix.id(i);
        long anchor = anchorOf(i);
        mix.fires(i, level.startMs, anchor, fromMs, toMs, t -> expected.add(id + ":" + t));
      }
    }
    return expected;
  }

  /** Trigger ids of the top-of-minute jobs' fires at {@code minuteMs}, a whole minute. */
  List<String> minuteBurst(long minuteMs) {
    if (minuteMs % 60_000 != 0) {
      throw new IllegalArgumentException(minuteMs + " is not a whole minute");
    }
    List<String> burst = new ArrayList<>();
    for (long i = 0; i < size(); i += 100) {
      burst.add(ScaleMix.id(i) + ":" + minuteMs); // kind(i) == MINUTE exactly when i % 100 == 0
    }
    return burst;
  }

  private long anchorOf(long i) {
    if (ScaleMix.kind(i) != ScaleMix.Kind.FIXED_RATE) {
      return 0;
    }
    Long anchor = anchors.get(i);
    if (anchor == null) {
      throw new IllegalStateException("no stored creation time for " + ScaleMix.id(i));
    }
    return anchor;
  }
}
