package dev.kairos.node.system;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NodeIdentityTest {

  @Test
  void explicitNameAndAddressAreKept() {
    NodeIdentity identity = NodeIdentity.resolve("node-a", "10.0.0.5:9000", 8080);
    assertThat(identity.name()).isEqualTo("node-a");
    assertThat(identity.internalAddress()).isEqualTo("10.0.0.5:9000");
  }

  @Test
  void emptyNameBecomesHostnameDashPortAndMatchesThePattern() {
    NodeIdentity identity = NodeIdentity.resolve("", "", 8081);
    assertThat(identity.name()).endsWith("-8081").matches(NodeProperties.NAME_PATTERN);
    assertThat(identity.internalAddress()).endsWith(":8081");
  }

  @Test
  void everyProcessStartGetsItsOwnIncarnation() {
    assertThat(NodeIdentity.resolve("n", "h:1", 1).incarnation())
        .isNotEqualTo(NodeIdentity.resolve("n", "h:1", 1).incarnation());
  }

  @Test
  void hostNamesAreCleanedForKeysAndZnodes() {
    assertThat(NodeIdentity.sanitize("web-1.example.com")).isEqualTo("web-1.example.com");
    assertThat(NodeIdentity.sanitize("a/b:c d")).isEqualTo("a_b_c_d");
    assertThat(NodeIdentity.sanitize("-odd")).isEqualTo("node-odd");
  }
}
