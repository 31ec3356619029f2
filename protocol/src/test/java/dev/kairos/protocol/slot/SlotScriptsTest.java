package dev.kairos.protocol.slot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class SlotScriptsTest {

  private static final String BASE =
      "\"instanceId\":\"e-1\",\"host\":\"h\",\"handlers\":[\"a\",\"b\"],\"slot\":2,"
          + "\"lastRenewalMs\":1700000000000,\"expiresMs\":1700000010000,\"busy\":false";

  @Test
  void aLeaseWithProgressGivesEachHandlersReceivedThroughTime() {
    SlotInfo info = SlotScripts.parse("{" + BASE + ",\"progress\":{\"a\":1700000000123,\"b\":0}}");

    assertThat(info.progress()).isEqualTo(Map.of("a", 1_700_000_000_123L, "b", 0L));
    assertThat(info.receivedThrough("a")).hasValue(1_700_000_000_123L);
    assertThat(info.receivedThrough("b")).hasValue(0L); // received nothing yet: known, not unknown
    assertThat(info.receivedThrough("c")).isEmpty();
    assertThat(info.handlers()).containsExactly("a", "b");
    assertThat(info.slot()).isEqualTo(2);
  }

  @Test
  void aLeaseWithoutProgressFromAnOlderExecutorSaysNothingAboutAnyHandler() {
    SlotInfo info = SlotScripts.parse("{" + BASE + "}");

    assertThat(info.progress()).isEmpty();
    assertThat(info.receivedThrough("a")).isEqualTo(OptionalLong.empty());
    assertThat(info.handlers()).containsExactly("a", "b");
  }

  @Test
  void cjsonsEncodingOfAnEmptyTableIsReadAsNoProgress() {
    // Redis's cjson writes an empty Lua table as {} whether it was meant as an object or an array.
    assertThat(SlotScripts.parse("{" + BASE + ",\"progress\":{}}").progress()).isEmpty();
    assertThat(SlotScripts.parse("{" + BASE + ",\"progress\":[]}").progress()).isEmpty();
    assertThat(
            SlotScripts.parse(
                    "{\"instanceId\":\"e\",\"handlers\":{},\"slot\":0,\"expiresMs\":1,"
                        + "\"progress\":{}}")
                .handlers())
        .isEmpty();
  }

  @Test
  void aNonNumericProgressEntryIsIgnoredRatherThanReadAsZero() {
    SlotInfo info =
        SlotScripts.parse("{" + BASE + ",\"progress\":{\"a\":\"soon\",\"b\":1700000000500}}");

    assertThat(info.receivedThrough("a")).isEmpty();
    assertThat(info.receivedThrough("b")).hasValue(1_700_000_000_500L);
  }

  @Test
  void aLeaseWrittenWithoutProgressEqualsOneWithAnEmptyMap() {
    assertThat(new SlotInfo("e", "h", List.of("a"), 0, 1, 2, false))
        .isEqualTo(new SlotInfo("e", "h", List.of("a"), 0, 1, 2, false, Map.of()));
  }
}
