package dev.kairos.core.store;

/**
 * The job events {@link JobStore} appends to a shard's stream ({@code kairos:{s}:events}).
 *
 * <ul>
 *   <li>{@code type JOB_UPSERTED ms <now> <every field of the stored job hash>}: create, update,
 *       enable, disable; the hash carries {@code id}, {@code version} and {@code scheduleVersion},
 *       so a consumer upserts the row when the version is newer than the stored one.
 *   <li>{@code type JOB_DELETED ms <now> id <id> version <v> scheduleVersion <sv>}: the versions
 *       are one above the last stored ones, so a replayed older upsert cannot resurrect the job.
 * </ul>
 */
public final class JobEvents {

  public static final String TYPE = "type";
  public static final String MS = "ms";
  public static final String JOB_UPSERTED = "JOB_UPSERTED";
  public static final String JOB_DELETED = "JOB_DELETED";

  private JobEvents() {}
}
