package dev.kairos.mq.slot;

import dev.kairos.protocol.slot.SlotInfo;
import java.util.List;

/**
 * One read of an app's live slot leases, with the lease clock's time of the read, so a reader can
 * judge lease ages (FAILOVER routing) on the clock the leases were written with.
 *
 * @param nowMs Redis TIME of the app's master when the leases were read
 * @param slots the unexpired leases, sorted by slot index
 */
public record LiveSlots(long nowMs, List<SlotInfo> slots) {

  public LiveSlots {
    slots = List.copyOf(slots);
  }

  /**
   * The live slots whose executor hosts {@code handler}, sorted by slot. Asked once per dispatch:
   * when every slot hosts it (the usual case) the list itself comes back, nothing is allocated.
   */
  public List<SlotInfo> hosting(String handler) {
    for (SlotInfo slot : slots) {
      if (!slot.hosts(handler)) {
        return slots.stream().filter(s -> s.hosts(handler)).toList();
      }
    }
    return slots;
  }
}
