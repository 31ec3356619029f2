package dev.kairos.core.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class SecretParamsCipherTest {

  private static final SecretParamsKey KEY = key(1);
  private static final SecretParamsKey OLD_KEY = key(2);
  private static final String PARAMS =
      "{\"url\":\"https://api.example.com/hook\",\"headers\":{\"Authorization\":\"Bearer s3cret\","
          + "\"Accept\":\"application/json\"},\"targets\":[{\"name\":\"a\",\"apiKey\":\"k-123\"}],"
          + "\"password\":\"hunter2\",\"retries\":3}";

  private final SecretParamsCipher node = SecretParamsCipher.sealingWith(KEY, List.of(OLD_KEY));

  @Test
  void sealsEverySecretStringAndNothingElse() {
    String sealed = node.seal("job-1", PARAMS);

    assertThat(sealed)
        .doesNotContain("s3cret", "k-123", "hunter2")
        .contains("\"url\":\"https://api.example.com/hook\"")
        .contains("\"Accept\":\"application/json\"")
        .contains("\"name\":\"a\"")
        .contains("\"retries\":3")
        .contains("\"Authorization\":\"" + SecretParamsCipher.PREFIX + KEY.id() + ":");
    assertThat(SecretParamsCipher.holdsSealed(sealed)).isTrue();
  }

  @Test
  void anExecutorWithTheKeyOpensWhatANodeSealed() {
    String sealed = node.seal("job-1", PARAMS);
    SecretParamsCipher executor = SecretParamsCipher.openingWith(List.of(KEY));

    assertThat(executor.open("job-1", sealed)).isEqualTo(PARAMS);
  }

  @Test
  void sealingIsDeterministicSoAnUnchangedWriteStaysUnchanged() {
    String once = node.seal("job-1", PARAMS);

    assertThat(node.seal("job-1", PARAMS)).isEqualTo(once);
    assertThat(node.seal("job-1", once)).isEqualTo(once);
    assertThat(node.seal("job-2", PARAMS)).isNotEqualTo(once);
  }

  @Test
  void theSameSecretInTwoFieldsSealsToTwoTexts() {
    String sealed = node.seal("job-1", "{\"token\":\"same\",\"inner\":{\"token\":\"same\"}}");

    String first = sealed.split("\"token\":\"")[1].split("\"")[0];
    String second = sealed.split("\"token\":\"")[2].split("\"")[0];
    assertThat(first).isNotEqualTo(second);
  }

  @Test
  void aSealedValueCopiedIntoAnotherJobDoesNotOpen() {
    String sealed = node.seal("job-1", PARAMS);

    assertThatThrownBy(() -> node.open("job-2", sealed))
        .isInstanceOf(SecretParamsException.class)
        .hasMessageContaining("sealed for another job");
  }

  @Test
  void anAlteredValueDoesNotOpen() {
    String sealed = node.seal("job-1", "{\"token\":\"abc\"}");
    int at = sealed.length() - 4;
    char flipped = sealed.charAt(at) == 'A' ? 'B' : 'A';
    String altered = sealed.substring(0, at) + flipped + sealed.substring(at + 1);

    assertThatThrownBy(() -> node.open("job-1", altered))
        .isInstanceOf(SecretParamsException.class)
        .hasMessageContaining("params field token");
  }

  @Test
  void aMissingKeyIsNamedAndNoValueIsShown() {
    String sealed = node.seal("job-1", PARAMS);
    SecretParamsCipher other = SecretParamsCipher.openingWith(List.of(OLD_KEY));

    assertThatThrownBy(() -> other.open("job-1", sealed))
        .isInstanceOf(SecretParamsException.class)
        .hasMessageContaining("sealed with key " + KEY.id())
        .hasMessageContaining("it holds " + OLD_KEY.id())
        .hasMessageNotContaining("s3cret");
    assertThat(other.openIfPossible("job-1", sealed)).isEqualTo(sealed);
  }

  @Test
  void valuesOfAnOlderKeyAreResealedWithTheCurrentOne() {
    String old = SecretParamsCipher.sealingWith(OLD_KEY, List.of()).seal("job-1", PARAMS);

    String resealed = node.seal("job-1", old);

    assertThat(resealed).contains(KEY.id()).doesNotContain(OLD_KEY.id());
    assertThat(SecretParamsCipher.openingWith(List.of(KEY)).open("job-1", resealed))
        .isEqualTo(PARAMS);
  }

  @Test
  void valuesOfAKeyThisNodeLacksAreKeptAsTheyAre() {
    SecretParamsKey foreign = key(3);
    String foreignSealed = SecretParamsCipher.sealingWith(foreign, List.of()).seal("job-1", PARAMS);

    assertThat(node.seal("job-1", foreignSealed)).isEqualTo(foreignSealed);
  }

  @Test
  void paramsThatAreNotAJsonObjectAndParamsWithoutSecretsAreStoredAsWritten() {
    assertThat(node.seal("job-1", "token=abc")).isEqualTo("token=abc");
    assertThat(node.seal("job-1", "[{\"token\":\"abc\"}]")).isEqualTo("[{\"token\":\"abc\"}]");
    assertThat(node.seal("job-1", "")).isEmpty();
    String plain = "{ \"url\" : \"https://example.com\" }";
    assertThat(node.seal("job-1", plain)).isSameAs(plain);
    assertThat(node.seal("job-1", "{\"token\":42}")).isEqualTo("{\"token\":42}");
  }

  @Test
  void withoutAKeyNothingIsSealed() {
    assertThat(SecretParamsCipher.none().seal("job-1", PARAMS)).isSameAs(PARAMS);
    assertThat(SecretParamsCipher.none().seals()).isFalse();
    assertThat(SecretParamsCipher.none().open("job-1", PARAMS)).isSameAs(PARAMS);
  }

  @Test
  void keysAreThirtyTwoBytesOfBase64AndTheirErrorsNeverEchoThem() {
    assertThatThrownBy(() -> SecretParamsKey.parse("c2hvcnQ="))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("32 bytes")
        .hasMessageNotContaining("c2hvcnQ=");
    assertThatThrownBy(() -> SecretParamsKey.parse("not base64 !"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("not base64 !");
    assertThatThrownBy(() -> SecretParamsKey.parse(" "))
        .isInstanceOf(IllegalArgumentException.class);
    byte[] raw = new byte[32];
    raw[0] = 1;
    String standard = Base64.getEncoder().encodeToString(raw);
    assertThat(SecretParamsKey.parse(standard).id()).isEqualTo(KEY.id()).hasSize(8);
    assertThat(SecretParamsKey.parse(standard).toString()).doesNotContain(standard);
  }

  private static SecretParamsKey key(int seed) {
    byte[] raw = new byte[32];
    raw[0] = (byte) seed;
    return SecretParamsKey.parse(Base64.getUrlEncoder().encodeToString(raw));
  }
}
