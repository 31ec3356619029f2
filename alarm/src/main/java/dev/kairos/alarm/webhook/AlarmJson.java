package dev.kairos.alarm.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.alarm.AlarmNotice;
import dev.kairos.alarm.AlarmText;
import dev.kairos.core.alarm.Alarm;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The webhook body. {@code text} makes it readable by chat webhooks that only show that field; the
 * other fields are for machines.
 *
 * <pre>{@code
 * {"text":"[Kairos] ...","key":"TRIGGER_FAILED:job-1","kind":"TRIGGER_FAILED","subject":"job-1",
 *  "title":"...","atMs":1700000000000,"at":"2023-11-14T22:13:20Z","suppressed":99,
 *  "details":{"attempt":"3","triggerId":"..."}}
 * }</pre>
 */
public final class AlarmJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private AlarmJson() {}

  public static byte[] write(AlarmNotice notice) {
    Alarm alarm = notice.alarm();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("text", AlarmText.headline(notice));
    body.put("key", alarm.key());
    body.put("kind", alarm.kind().name());
    body.put("subject", alarm.subject());
    body.put("title", alarm.title());
    body.put("atMs", alarm.atMs());
    body.put("at", Instant.ofEpochMilli(alarm.atMs()).toString());
    body.put("suppressed", notice.suppressed());
    body.put("details", new TreeMap<>(alarm.details()));
    try {
      return MAPPER.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a map of strings and numbers did not serialise", e);
    }
  }
}
