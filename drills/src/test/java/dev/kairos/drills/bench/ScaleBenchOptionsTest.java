package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ScaleBenchOptionsTest {

  @Test
  void defaultsGrowToAMillionOnTheDeployedTopology() {
    ScaleBenchOptions o = ScaleBenchOptions.parse();
    assertThat(o.levels()).containsExactly(10_000, 100_000, 1_000_000);
    assertThat(o.importCallers()).isEqualTo(2);
    assertThat(o.rebuild()).isTrue();
    assertThat(o.apiRequests()).isEqualTo(50);
    ClusterShape shape = o.shape();
    assertThat(shape.nodes()).isEqualTo(2);
    assertThat(shape.executors()).isEqualTo(2);
    assertThat(shape.sync()).isTrue();
    assertThat(shape.shards()).isEqualTo(64);
    assertThat(shape.childJvmOptions()).contains("-Xmx512m", "-XX:+UseSerialGC");
    assertThat(shape.redisConfig()).isEmpty();
  }

  @Test
  void levelsMustAscendInWholeHundreds() {
    assertThat(ScaleBenchOptions.parse("--levels=2000,10000").levels())
        .containsExactly(2000, 10000);
    assertThatThrownBy(() -> ScaleBenchOptions.parse("--levels=10000,2000"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("ascend");
    assertThatThrownBy(() -> ScaleBenchOptions.parse("--levels=1050"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("multiples of 100");
  }

  @Test
  void redisConfigPairsReachTheShape() {
    assertThat(ScaleBenchOptions.parse("--redis-config=rdbcompression:no").shape().redisConfig())
        .isEqualTo(Map.of("rdbcompression", "no"));
    assertThatThrownBy(() -> ScaleBenchOptions.parse("--no-such-option"))
        .isInstanceOf(CommandLine.ParameterException.class);
  }

  @Test
  void theTopologyIsCheckedAsClusterBenchChecksIt() {
    assertThat(ScaleBenchOptions.parse("--nodes=3", "--executors=1", "--queues=2").shape())
        .extracting(ClusterShape::nodes, ClusterShape::executors, ClusterShape::queues)
        .containsExactly(3, 1, 2);
    assertThatThrownBy(() -> ScaleBenchOptions.parse("--executors=5", "--queues=4"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("--executors");
    assertThatThrownBy(() -> ScaleBenchOptions.parse("--redis-config=rdbcompression"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("name:value");
    assertThat(ScaleBenchOptions.usage()).contains("--levels", "--nodes", "--child-jvm");
  }
}
