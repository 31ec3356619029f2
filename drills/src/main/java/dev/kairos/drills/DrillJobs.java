package dev.kairos.drills;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.store.JobStore;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

/**
 * The drill's workload: {@code count} jobs firing every second on the second (cron {@code * * * * *
 * *}, UTC), all on the {@link StartRecorder} handler of one executor app. Because the schedule is
 * this simple, the expected fires of a window are computed from it, never from what was observed.
 */
public record DrillJobs(List<String> jobIds) {

  /** Creates the jobs through the write-through job store, as the admin API would. */
  public static DrillJobs create(JobStore store, String app, String prefix, int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      JobDefinition job =
          JobDefinition.builder(prefix + "-" + i)
              .app(app)
              .handler(StartRecorder.HANDLER)
              .cron("* * * * * *")
              .build();
      ids.add(store.create(job).id());
    }
    return new DrillJobs(List.copyOf(ids));
  }

  /** Every fire time (epoch ms) of one job in {@code [fromMs, toMs)}: each whole second. */
  public static LongStream fireTimes(long fromMs, long toMs) {
    long first = Math.floorDiv(fromMs + 999, 1000) * 1000;
    return LongStream.iterate(first, t -> t < toMs, t -> t + 1000);
  }

  /** The trigger ids (DESIGN "Trigger identity") of every expected fire in the window. */
  public List<String> expectedTriggerIds(long fromMs, long toMs) {
    List<String> ids = new ArrayList<>();
    fireTimes(fromMs, toMs).forEach(t -> jobIds.forEach(job -> ids.add(job + ":" + t)));
    return ids;
  }
}
