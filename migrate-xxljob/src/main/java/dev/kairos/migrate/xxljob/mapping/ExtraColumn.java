package dev.kairos.migrate.xxljob.mapping;

import dev.kairos.migrate.xxljob.source.XxlJobInfo;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * An xxl-job column beyond scheduling and routing, and the job body's field that carries it (or why
 * none does): one line of {@link #ALL} each.
 *
 * @param xxl xxl-job's column
 * @param value reads it from a row
 * @param kairosField the job body's field that carries it, or {@code null} while none exists
 * @param toKairos turns the column's text into the field's value (a list for recipients)
 * @param reason why it is not carried (when {@code kairosField} is null)
 */
public record ExtraColumn(
    String xxl,
    Function<XxlJobInfo, String> value,
    String kairosField,
    Function<String, Object> toKairos,
    String reason) {

  /** Every extra column, in the order the report lists them. */
  public static final List<ExtraColumn> ALL =
      List.of(
          carried("job_desc", XxlJobInfo::jobDesc, "description", text -> text),
          carried("author", XxlJobInfo::author, "owner", text -> text),
          // xxl-job keeps the addresses comma-separated; the node validates each one.
          carried("alarm_email", XxlJobInfo::alarmEmail, "alarmEmails", ExtraColumn::addresses));

  static ExtraColumn carried(
      String xxl,
      Function<XxlJobInfo, String> value,
      String kairosField,
      Function<String, Object> toKairos) {
    return new ExtraColumn(xxl, value, kairosField, toKairos, null);
  }

  static ExtraColumn notCarried(String xxl, Function<XxlJobInfo, String> value, String reason) {
    return new ExtraColumn(xxl, value, null, null, reason);
  }

  private static Object addresses(String text) {
    return Arrays.stream(text.split("[,;\\s]+")).filter(a -> !a.isBlank()).distinct().toList();
  }
}
