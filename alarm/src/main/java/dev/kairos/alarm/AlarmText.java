package dev.kairos.alarm;

import dev.kairos.core.alarm.Alarm;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/** Human-readable renderings of a notice, shared by the channels. */
public final class AlarmText {

  private AlarmText() {}

  /** One line: "[Kairos] title (and N more suppressed)". */
  public static String headline(AlarmNotice notice) {
    String line = "[Kairos] " + notice.alarm().title();
    return notice.suppressed() == 0
        ? line
        : line + " (" + notice.suppressed() + " more suppressed since the previous alarm)";
  }

  /** Multi-line body: headline, key, time, then the details sorted by name. */
  public static String body(AlarmNotice notice) {
    Alarm alarm = notice.alarm();
    StringBuilder text = new StringBuilder(headline(notice)).append("\n\n");
    text.append("kind: ").append(alarm.kind()).append('\n');
    text.append("subject: ").append(alarm.subject()).append('\n');
    text.append("at: ").append(Instant.ofEpochMilli(alarm.atMs())).append('\n');
    text.append("suppressed duplicates: ").append(notice.suppressed()).append('\n');
    for (Map.Entry<String, String> e : new TreeMap<>(alarm.details()).entrySet()) {
      text.append(e.getKey()).append(": ").append(e.getValue()).append('\n');
    }
    return text.toString();
  }
}
