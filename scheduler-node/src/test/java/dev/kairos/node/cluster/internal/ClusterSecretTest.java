package dev.kairos.node.cluster.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClusterSecretTest {

  @Test
  void matchesOnlyTheExactValueAndNeverPrintsIt() {
    ClusterSecret secret = ClusterSecret.of("s3cret-value");
    assertThat(secret.matches("s3cret-value")).isTrue();
    assertThat(secret.matches("s3cret-valuE")).isFalse();
    assertThat(secret.matches("s3cret")).isFalse();
    assertThat(secret.matches("")).isFalse();
    assertThat(secret.matches(null)).isFalse();
    assertThat(secret.generated()).isFalse();
    assertThat(secret.toString()).doesNotContain("s3cret");
  }

  @Test
  void anEmptySecretBecomesARandomOneThatNoCallerKnows() {
    ClusterSecret a = ClusterSecret.of("");
    ClusterSecret b = ClusterSecret.of(" ");
    assertThat(a.generated()).isTrue();
    assertThat(a.header()).hasSize(64).isNotEqualTo(b.header());
    assertThat(a.matches("")).isFalse();
  }
}
