package dev.kairos.builtin.http;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which HTTP statuses end a run as SUCCESS: a union of ranges written {@code 204}, {@code 2xx} or
 * {@code 200-299}. The default is {@code 2xx}.
 */
public final class SuccessStatuses {

  private static final Pattern CLASS = Pattern.compile("([1-5])xx", Pattern.CASE_INSENSITIVE);
  private static final Pattern RANGE = Pattern.compile("(\\d{3})\\s*-\\s*(\\d{3})");
  private static final Pattern ONE = Pattern.compile("\\d{3}");

  /** {@code 2xx}; declared after the patterns it is parsed with. */
  public static final SuccessStatuses DEFAULT = parse(List.of("2xx"));

  private final List<int[]> ranges;
  private final String text;

  private SuccessStatuses(List<int[]> ranges, String text) {
    this.ranges = ranges;
    this.text = text;
  }

  /**
   * @param items each {@code 204}, {@code 2xx} or {@code 200-299}
   * @throws IllegalArgumentException naming the item that is none of these or outside 100..599
   */
  public static SuccessStatuses parse(List<String> items) {
    if (items.isEmpty()) {
      throw new IllegalArgumentException("must name at least one status or range");
    }
    List<int[]> ranges = new ArrayList<>();
    for (String raw : items) {
      String item = raw.trim();
      Matcher m;
      int low;
      int high;
      if ((m = CLASS.matcher(item)).matches()) {
        low = Integer.parseInt(m.group(1)) * 100;
        high = low + 99;
      } else if ((m = RANGE.matcher(item)).matches()) {
        low = Integer.parseInt(m.group(1));
        high = Integer.parseInt(m.group(2));
      } else if (ONE.matcher(item).matches()) {
        low = Integer.parseInt(item);
        high = low;
      } else {
        throw new IllegalArgumentException(
            "\"" + raw + "\" is not a status (204), a class (2xx) or a range (200-299)");
      }
      if (low < 100 || high > 599 || low > high) {
        throw new IllegalArgumentException("\"" + raw + "\" is outside 100..599 or an empty range");
      }
      ranges.add(new int[] {low, high});
    }
    return new SuccessStatuses(List.copyOf(ranges), String.join(",", items));
  }

  public boolean matches(int status) {
    for (int[] range : ranges) {
      if (status >= range[0] && status <= range[1]) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return text;
  }
}
