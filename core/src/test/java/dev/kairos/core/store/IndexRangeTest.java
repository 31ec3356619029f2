package dev.kairos.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.Range;
import org.junit.jupiter.api.Test;

/** The lex ranges of the job indexes: which key, which bounds, which ids. */
class IndexRangeTest {

  private static String lex(Range.Boundary<String> b, boolean lower) {
    if (b.getValue() == null) {
      return lower ? "-" : "+";
    }
    return (b.isIncluding() ? "[" : "(") + b.getValue();
  }

  private static String lex(Range<String> range) {
    return lex(range.getLower(), true) + " " + lex(range.getUpper(), false);
  }

  @Test
  void everyJobIsTheWholeIdIndexFromTheStartOrAfterACursor() {
    assertThat(IndexRange.ALL.key(3)).isEqualTo(RedisKeys.jobIds(3));
    assertThat(lex(IndexRange.ALL.after(null))).isEqualTo("- +");
    assertThat(lex(IndexRange.ALL.after("job-7"))).isEqualTo("(job-7 +");
    assertThat(IndexRange.ALL.idOf("job-7")).isEqualTo("job-7");
  }

  @Test
  void oneAppIsItsMembersInThePerAppIndex() {
    IndexRange billing = IndexRange.ofApp("billing");
    assertThat(billing.key(3)).isEqualTo(RedisKeys.appJobIds(3));
    assertThat(lex(billing.after(null))).isEqualTo("[billing: (billing;");
    assertThat(lex(billing.after("nightly"))).isEqualTo("(billing:nightly (billing;");
    assertThat(billing.idOf("billing:nightly")).isEqualTo("nightly");
    assertThat(IndexRange.appMember("billing", "nightly")).isEqualTo("billing:nightly");
    // Other apps that start with 'billing' sort outside the range: 'billing-eu:x' and
    // 'billing2:x' before 'billing:' ('-' and digits are below ':'), 'billingX:x' after 'billing;'.
    assertThat("billing-eu:x").isLessThan("billing:");
    assertThat("billing2:x").isLessThan("billing:");
    assertThat("billingX:x").isGreaterThan("billing;");
    assertThat("billing_x:y").isGreaterThan("billing;");
  }

  @Test
  void anIdPrefixNarrowsEitherIndexToTheIdsStartingWithIt() {
    IndexRange prefix = new IndexRange(null, "report-");
    assertThat(lex(prefix.after(null))).isEqualTo("[report- (report.");
    // A cursor before the prefix starts at the prefix; one inside continues after it.
    assertThat(lex(prefix.after("alpha"))).isEqualTo("[report- (report.");
    assertThat(lex(prefix.after("report-9"))).isEqualTo("(report-9 (report.");

    IndexRange both = new IndexRange("billing", "report-");
    assertThat(lex(both.after(null))).isEqualTo("[billing:report- (billing:report.");
    assertThat(both.contains("billing", "report-1")).isTrue();
    assertThat(both.contains("billing", "other")).isFalse();
    assertThat(both.contains("shipping", "report-1")).isFalse();
    assertThat(new IndexRange("billing", "").isAll()).isFalse();
    assertThat(new IndexRange(null, "").isAll()).isTrue();
  }

  @Test
  void anAppWithTheSeparatorIsRefused() {
    assertThatThrownBy(() -> IndexRange.ofApp("a:b")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> IndexRange.ofApp("")).isInstanceOf(IllegalArgumentException.class);
  }
}
