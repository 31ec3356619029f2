package dev.kairos.workflow;

/**
 * When a scheduled workflow starts a run: a CRON expression (core's dialect, seconds field
 * optional) in a time zone.
 *
 * @param zone an IANA zone id; null reads as UTC
 */
public record WorkflowSchedule(String cron, String zone) {

  public WorkflowSchedule {
    zone = zone == null || zone.isBlank() ? "UTC" : zone;
  }
}
