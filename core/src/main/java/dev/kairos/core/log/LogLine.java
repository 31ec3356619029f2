package dev.kairos.core.log;

import java.util.Objects;

/**
 * One line of a trigger's handler log, as the executor ships it and the API serves it.
 *
 * <p>Stored text forms (tab-separated, so no JSON library is needed on either side; the text is
 * last and may itself contain tabs and newlines): {@link #encode()} = {@code
 * <seq>\t<tsMs>\t<level>\t<text>} is the member of the Redis ZSET (the sequence number keeps equal
 * lines distinct), {@link #encodeBody()} = {@code <tsMs>\t<level>\t<text>} is the value of a {@code
 * TRIGGER_LOG} event's {@code L<seq>} field.
 *
 * @param seq position in the run's log, from 1; the API's cursor
 * @param tsMs when the line was logged (executor wall clock, epoch ms)
 * @param level TRACE, DEBUG, INFO, WARN or ERROR
 * @param text the line
 */
public record LogLine(long seq, long tsMs, String level, String text) {

  public LogLine {
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(text, "text");
    if (seq < 1) {
      throw new IllegalArgumentException("seq must be >= 1 but was " + seq);
    }
  }

  public String encode() {
    return seq + "\t" + encodeBody();
  }

  public String encodeBody() {
    return tsMs + "\t" + level + "\t" + text;
  }

  /** Parses {@link #encode()}; throws {@link IllegalArgumentException} on anything else. */
  public static LogLine decode(String member) {
    int tab = member.indexOf('\t');
    if (tab < 1) {
      throw new IllegalArgumentException("not a log line: no sequence number");
    }
    return decodeBody(parse(member.substring(0, tab)), member.substring(tab + 1));
  }

  /** Parses {@link #encodeBody()} of line {@code seq}. */
  public static LogLine decodeBody(long seq, String body) {
    int first = body.indexOf('\t');
    int second = first < 0 ? -1 : body.indexOf('\t', first + 1);
    if (first < 1 || second < 0) {
      throw new IllegalArgumentException("not a log line body: expected <tsMs>\\t<level>\\t<text>");
    }
    return new LogLine(
        seq,
        parse(body.substring(0, first)),
        body.substring(first + 1, second),
        body.substring(second + 1));
  }

  private static long parse(String number) {
    try {
      return Long.parseLong(number);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a log line: '" + number + "' is not a number", e);
    }
  }
}
