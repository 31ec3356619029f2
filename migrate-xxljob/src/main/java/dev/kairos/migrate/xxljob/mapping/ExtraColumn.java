package dev.kairos.migrate.xxljob.mapping;

import dev.kairos.migrate.xxljob.source.XxlJobInfo;
import java.util.List;
import java.util.function.Function;

/**
 * An xxl-job column beyond scheduling and routing. Kairos jobs do not have these fields yet, so
 * each is reported as not carried with its reason; when Kairos gains one, its line here becomes
 * {@code carried("job_desc", XxlJobInfo::jobDesc, "description")} and the importer sends it.
 *
 * @param xxl xxl-job's column
 * @param value reads it from a row
 * @param kairosField the job body's field that carries it, or {@code null} while none exists
 * @param reason why it is not carried (when {@code kairosField} is null)
 */
public record ExtraColumn(
    String xxl, Function<XxlJobInfo, String> value, String kairosField, String reason) {

  /** Every extra column, in the order the report lists them. */
  public static final List<ExtraColumn> ALL =
      List.of(
          notCarried(
              "job_desc",
              XxlJobInfo::jobDesc,
              "Kairos jobs have no description yet (issue #18 item 4)"),
          notCarried(
              "author", XxlJobInfo::author, "Kairos jobs have no owner yet (issue #18 item 4)"),
          notCarried(
              "alarm_email",
              XxlJobInfo::alarmEmail,
              "Kairos has no per-job alarm recipients yet; failures go to the global alarm sinks"
                  + " (kairos.alarm.*, issue #18 item 4)"));

  static ExtraColumn carried(String xxl, Function<XxlJobInfo, String> value, String kairosField) {
    return new ExtraColumn(xxl, value, kairosField, null);
  }

  static ExtraColumn notCarried(String xxl, Function<XxlJobInfo, String> value, String reason) {
    return new ExtraColumn(xxl, value, null, reason);
  }
}
