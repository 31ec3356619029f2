package dev.kairos.compat.xxljob;

import com.xxl.job.core.context.XxlJobContext;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;

/**
 * Creates xxl-job-core's {@link XxlJobContext} across its versions, so an application keeps the
 * xxl-job-core it compiles against: 3.3 and later take {@code (jobId, jobParam, logId, logDateTime,
 * logFileName, shardIndex, shardTotal)}, 2.x to 3.2 take {@code (jobId, jobParam, logFileName,
 * shardIndex, shardTotal)}. The constructor is looked up once.
 */
final class XxlJobContexts {

  private static final Constructor<XxlJobContext> CURRENT =
      constructor(
          long.class, String.class, long.class, long.class, String.class, int.class, int.class);
  private static final Constructor<XxlJobContext> BEFORE_3_3 =
      constructor(long.class, String.class, String.class, int.class, int.class);

  private XxlJobContexts() {}

  /**
   * @param logId xxl-job's trigger log id; Kairos trigger ids are strings, so -1
   * @param logDateTime the scheduled fire time, which xxl-job uses to date its log
   */
  static XxlJobContext create(
      long jobId,
      String jobParam,
      long logId,
      long logDateTime,
      String logFileName,
      int shardIndex,
      int shardTotal) {
    try {
      if (CURRENT != null) {
        return CURRENT.newInstance(
            jobId, jobParam, logId, logDateTime, logFileName, shardIndex, shardTotal);
      }
      if (BEFORE_3_3 != null) {
        return BEFORE_3_3.newInstance(jobId, jobParam, logFileName, shardIndex, shardTotal);
      }
    } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot create xxl-job's XxlJobContext", e);
    }
    throw new IllegalStateException(
        "this xxl-job-core has no XxlJobContext constructor known to Kairos (2.x to 3.3 are)");
  }

  private static Constructor<XxlJobContext> constructor(Class<?>... types) {
    try {
      return XxlJobContext.class.getConstructor(types);
    } catch (NoSuchMethodException e) {
      return null;
    }
  }
}
