package dev.kairos.builtin;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.mq.executor.JobContext;
import dev.kairos.protocol.message.TriggerMessage;

/** Run contexts as the executor builds them, for calling a handler directly. */
public final class Contexts {

  private static final long FIRE = 1_767_225_600_000L;

  private Contexts() {}

  public static JobContext of(String handler, String params) {
    return JobContext.of(
        TriggerMessage.of(
            "job-" + handler.replace('.', '-') + ":" + FIRE,
            "ops",
            handler,
            FIRE,
            1,
            params,
            0,
            1,
            0,
            BlockStrategy.SERIAL_EXECUTION,
            1,
            FIRE));
  }
}
