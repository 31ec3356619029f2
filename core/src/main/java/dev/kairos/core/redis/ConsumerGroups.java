package dev.kairos.core.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;

/**
 * What every stream consumer group of Kairos does alike (persistence-sync's, the lifecycle's, the
 * audit log's): create its group so that it reads the whole stream, whether or not the stream or
 * the group exists yet, and recognise the refusal that says the group is gone (a Redis that lost
 * its data), after which the reader creates it again.
 */
public final class ConsumerGroups {

  private ConsumerGroups() {}

  /** Creates {@code group} on {@code stream} at id 0 with MKSTREAM; an existing group stays. */
  public static void create(KairosRedis redis, String stream, String group) {
    try {
      redis
          .sync()
          .xgroupCreate(
              XReadArgs.StreamOffset.from(stream, "0"), group, XGroupCreateArgs.Builder.mkstream());
    } catch (RedisCommandExecutionException e) {
      if (!String.valueOf(e.getMessage()).startsWith("BUSYGROUP")) {
        throw e;
      }
    }
  }

  /** Whether Redis refused a group command because the group (or its stream) does not exist. */
  public static boolean isNoGroup(Throwable e) {
    return e instanceof RedisCommandExecutionException
        && String.valueOf(e.getMessage()).startsWith("NOGROUP");
  }
}
