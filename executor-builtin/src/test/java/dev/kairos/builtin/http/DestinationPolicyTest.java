package dev.kairos.builtin.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Where HTTP jobs may call, on a resolver that answers from a table (no DNS). */
class DestinationPolicyTest {

  private static final Map<String, List<String>> DNS =
      Map.of(
          "internal.example.com", List.of("10.0.0.5"),
          "api.example.com", List.of("93.184.216.34"),
          "split.example.com", List.of("10.20.0.1", "10.99.0.1"),
          "metadata.example.com", List.of("169.254.169.254"));

  private static InetAddress[] resolve(String host) throws UnknownHostException {
    List<String> answer = DNS.get(host);
    if (answer != null) {
      InetAddress[] addresses = new InetAddress[answer.size()];
      for (int i = 0; i < addresses.length; i++) {
        addresses[i] = InetAddress.getByName(answer.get(i));
      }
      return addresses;
    }
    if (host.matches("[0-9.]+") || host.contains(":")) {
      return new InetAddress[] {InetAddress.getByName(host)}; // a literal: no lookup
    }
    throw new UnknownHostException(host);
  }

  private static DestinationPolicy publicOnly() {
    return DestinationPolicy.allowing(List.of(), DestinationPolicyTest::resolve);
  }

  private static DestinationPolicy allowing(String... entries) {
    return DestinationPolicy.allowing(List.of(entries), DestinationPolicyTest::resolve);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.0.0.1/",
        "http://127.8.9.10:8080/",
        "http://[::1]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.1.2.3/",
        "http://172.16.0.1/",
        "http://192.168.1.1/",
        "http://100.64.0.1/",
        "http://0.0.0.0/",
        "http://[fd00::1]/",
        "http://[fe80::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://224.0.0.1/",
        "http://internal.example.com/",
        "https://metadata.example.com/"
      })
  void withoutAnAllowListInternalDestinationsAreRefused(String url) {
    assertThatThrownBy(() -> publicOnly().check(URI.create(url)))
        .isInstanceOf(DestinationPolicy.RefusedException.class)
        .hasMessageContaining("address; HTTP jobs call public addresses only")
        .hasMessageContaining(DestinationPolicy.PROPERTY);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://api.example.com/close",
        "http://93.184.216.34:8080/",
        "http://[2606:4700::1]/",
        "http://does-not-resolve.example.net/"
      })
  void withoutAnAllowListPublicDestinationsPass(String url) {
    assertThatCode(() -> publicOnly().check(URI.create(url))).doesNotThrowAnyException();
  }

  @Test
  void theRefusalNamesTheAddressAndItsKind() {
    assertThatThrownBy(() -> publicOnly().check(URI.create("http://metadata.example.com/x")))
        .hasMessageContaining("metadata.example.com:80 resolves to 169.254.169.254, a link-local");
  }

  @Test
  void withAnAllowListOnlyItsDestinationsPassInternalOnesIncluded() throws Exception {
    DestinationPolicy policy = allowing("internal.example.com", "10.20.0.0/16:8443", "[fd00::]/8");

    policy.check(URI.create("http://internal.example.com/run"));
    policy.check(URI.create("https://10.20.3.4:8443/"));
    policy.check(URI.create("http://[fd12::1]/"));
    assertThat(policy.allowListed()).isTrue();
    for (String refused :
        List.of(
            "https://api.example.com/",
            "https://10.20.3.4/",
            "https://10.21.0.1:8443/",
            "http://[fe80::1]/",
            "http://127.0.0.1/")) {
      assertThatThrownBy(() -> policy.check(URI.create(refused)))
          .as(refused)
          .isInstanceOf(DestinationPolicy.RefusedException.class)
          .hasMessageContaining("is not in " + DestinationPolicy.PROPERTY);
    }
  }

  @Test
  void aWildcardEntryAllowsSubdomainsNotTheDomainItself() throws Exception {
    DestinationPolicy policy = allowing("*.example.com:443");

    policy.check(URI.create("https://api.example.com/"));
    policy.check(URI.create("https://internal.example.com/"));
    assertThatThrownBy(() -> policy.check(URI.create("https://example.com/")))
        .isInstanceOf(DestinationPolicy.RefusedException.class);
    assertThatThrownBy(() -> policy.check(URI.create("http://api.example.com/")))
        .as("port 80 is not 443")
        .isInstanceOf(DestinationPolicy.RefusedException.class);
    assertThatThrownBy(() -> policy.check(URI.create("https://api.example.com.evil.net/")))
        .isInstanceOf(DestinationPolicy.RefusedException.class);
  }

  @Test
  void aRangeEntryNeedsEveryAddressOfTheHostInRange() {
    DestinationPolicy policy = allowing("10.20.0.0/16");

    assertThatThrownBy(() -> policy.check(URI.create("http://split.example.com/")))
        .isInstanceOf(DestinationPolicy.RefusedException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.0.0.0/33", "10.0.0.0/8:0", "host:99999", "[fd00::", "a..b", "/8"})
  void aMalformedEntryIsRefusedNamingThePropertyAndTheEntry(String entry) {
    assertThatThrownBy(() -> DestinationPolicy.allowing(List.of(entry)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(DestinationPolicy.PROPERTY)
        .hasMessageContaining("'" + entry + "'");
  }
}
