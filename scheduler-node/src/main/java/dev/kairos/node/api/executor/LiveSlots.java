package dev.kairos.node.api.executor;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.mq.slot.SlotRegistry;
import dev.kairos.protocol.slot.SlotInfo;
import java.util.List;

/**
 * The API's view of executor slot leases (one script call per app, judged on the app master's Redis
 * time). Wraps executor-mq's registry so the API owns no SlotRegistry bean of its own that could
 * clash with the fire path's.
 */
public final class LiveSlots {

  private final SlotRegistry registry;

  public LiveSlots(KairosRedis redis) {
    this.registry = new SlotRegistry(redis);
  }

  public List<SlotInfo> of(String app) {
    return registry.liveSlots(app);
  }
}
