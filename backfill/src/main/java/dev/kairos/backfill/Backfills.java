package dev.kairos.backfill;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.time.KairosClock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Starting, reading and cancelling backfills: the checks of a request and the idempotent create.
 * The leader's {@link BackfillDriver} does the rest. Thread-safe.
 */
public final class Backfills {

  /** Most fires one backfill may run, unless configured otherwise. */
  public static final int DEFAULT_MAX_FIRES = 10_000;

  /** Highest {@code maxConcurrent}, unless configured otherwise. */
  public static final int DEFAULT_MAX_CONCURRENT = 100;

  /** A backfill as a start request found it: created by this request, or there already. */
  public record Started(Backfill backfill, boolean created) {}

  private final BackfillStore store;
  private final KairosClock clock;
  private final int maxFires;
  private final int maxConcurrent;

  public Backfills(BackfillStore store, KairosClock clock, int maxFires, int maxConcurrent) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (maxFires < 1 || maxConcurrent < 1) {
      throw new IllegalArgumentException("maxFires and maxConcurrent must be >= 1");
    }
    this.maxFires = maxFires;
    this.maxConcurrent = maxConcurrent;
  }

  /**
   * Starts a backfill of {@code job}'s fires in [{@code fromMs}, {@code toMs}], or answers the one
   * these three values already started (whatever its state and {@code maxConcurrent}).
   *
   * @throws BackfillRejectedException naming the field at fault: {@code maxConcurrent} outside
   *     1..limit, {@code from} after {@code to}, {@code to} in the future, {@code scheduleType} of
   *     a job without enumerable fires (API, FIXED_DELAY), {@code from} when the range holds no
   *     fire, {@code to} when it holds more than the cap
   */
  public Started start(JobDefinition job, long fromMs, long toMs, int maxConcurrent) {
    long now = clock.nowMs();
    if (maxConcurrent < 1 || maxConcurrent > this.maxConcurrent) {
      throw new BackfillRejectedException(
          "maxConcurrent", "must be in 1.." + this.maxConcurrent + " but was " + maxConcurrent);
    }
    if (fromMs < 0) {
      throw new BackfillRejectedException("from", "must not be before 1970 but was " + fromMs);
    }
    if (fromMs > toMs) {
      throw new BackfillRejectedException("from", "must not be after to");
    }
    if (toMs > now) {
      throw new BackfillRejectedException(
          "to", "must not be in the future (a backfill runs past fires only)");
    }
    String id = Backfill.idOf(job.id(), fromMs, toMs);
    Optional<Backfill> existing = store.get(id);
    if (existing.isPresent()) {
      return new Started(existing.get(), false);
    }
    if (job.scheduleType() == ScheduleType.API || job.scheduleType() == ScheduleType.FIXED_DELAY) {
      throw new BackfillRejectedException(
          "scheduleType",
          "a "
              + job.scheduleType()
              + " job has no fire times to backfill; use \"trigger now\" instead");
    }
    Backfill backfill =
        new Backfill(
            id,
            job.id(),
            job.app(),
            fromMs,
            toMs,
            maxConcurrent,
            0,
            0,
            0,
            0,
            fromMs - 1,
            List.of(),
            BackfillState.RUNNING,
            "",
            now,
            now,
            0,
            0,
            job.scheduleType(),
            job.scheduleSpec(),
            job.zone(),
            job.cronDialect(),
            job.createdMs());
    int fires = backfill.range().count(maxFires);
    if (fires == 0) {
      throw new BackfillRejectedException("from", "the job's schedule has no fire in [from, to]");
    }
    if (fires > maxFires) {
      throw new BackfillRejectedException(
          "to", "the range holds more than " + maxFires + " fires; split it into smaller ranges");
    }
    Backfill counted = withTotal(backfill, fires);
    if (store.create(counted)) {
      return new Started(counted, true);
    }
    // Created by a request racing this one: answer that one.
    return new Started(store.get(id).orElse(counted), false);
  }

  public Optional<Backfill> get(String id) {
    return store.get(id);
  }

  /** The job's backfills still kept, newest first. */
  public List<Backfill> forJob(String jobId) {
    return store.forJob(jobId);
  }

  /** Cancels a RUNNING backfill; see {@link BackfillStore#cancel}. */
  public BackfillStore.Outcome cancel(String id, String message) {
    return store.cancel(id, clock.nowMs(), message);
  }

  private static Backfill withTotal(Backfill b, int total) {
    return new Backfill(
        b.id(),
        b.jobId(),
        b.app(),
        b.fromMs(),
        b.toMs(),
        b.maxConcurrent(),
        total,
        0,
        0,
        0,
        b.cursorMs(),
        b.inflight(),
        b.state(),
        b.message(),
        b.createdMs(),
        b.updatedMs(),
        b.finishedMs(),
        b.rev(),
        b.scheduleType(),
        b.scheduleSpec(),
        b.zone(),
        b.cronDialect(),
        b.anchorMs());
  }
}
