package dev.kairos.compat.xxljob;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code XxlJobHelper.getJobId()} is a number in xxl-job; Kairos job ids are names. A Kairos id
 * that is a number, or ends in one after a separator ({@code 42}, {@code xxl-42}, as imported jobs
 * are named), reads as that number; any other id as -1, what xxl-job answers outside a run.
 */
final class XxlJobIds {

  private static final Pattern NUMBERED = Pattern.compile("(?:.*[-_.])?(\\d{1,18})");

  private XxlJobIds() {}

  static long numeric(String jobId) {
    Matcher m = NUMBERED.matcher(jobId);
    return m.matches() ? Long.parseLong(m.group(1)) : -1;
  }
}
