package dev.kairos.mq.slot;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.protocol.slot.SlotInfo;
import dev.kairos.protocol.slot.SlotScripts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read side of slot leases, for scheduler nodes: which slots of an app have a live executor.
 * One script call per question, judged by the Redis TIME of the app's master (the same clock the
 * leases expire on). Routers send only to live slots; a slot whose lease expired keeps what was
 * already sent to its queue until the next instance claims the slot and drains it. Thread-safe.
 */
public final class SlotRegistry {

  private static final Logger log = LoggerFactory.getLogger(SlotRegistry.class);

  private final SlotScripts scripts;

  public SlotRegistry(KairosRedis redis) {
    this.scripts = new SlotScripts(redis);
  }

  /** The live slots of {@code app}, sorted by slot index; empty when no executor is up. */
  public List<SlotInfo> liveSlots(String app) {
    return read(app).slots();
  }

  /** The live slots of {@code app} with the lease clock's time of the read (one script call). */
  public LiveSlots read(String app) {
    SlotScripts.RawLeases raw = scripts.liveLeases(app);
    List<SlotInfo> slots = new ArrayList<>();
    for (String json : raw.json()) {
      try {
        SlotInfo info = SlotScripts.parse(json);
        if (info.slot() >= 0) {
          slots.add(info);
        }
      } catch (RuntimeException e) {
        log.warn("skipping an unreadable slot lease of app {}: {}", app, e.getMessage());
      }
    }
    slots.sort(Comparator.comparingInt(SlotInfo::slot));
    return new LiveSlots(raw.nowMs(), slots);
  }

  /** The live slots of {@code app} whose executor hosts {@code handler}, sorted by slot. */
  public List<SlotInfo> liveSlots(String app, String handler) {
    return liveSlots(app).stream().filter(s -> s.hosts(handler)).toList();
  }
}
