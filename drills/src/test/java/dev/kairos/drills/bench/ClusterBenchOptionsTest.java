package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ClusterBenchOptionsTest {

  @Test
  void defaultsRunTheBurstFirstWithSyncOnAndNoSoak() {
    ClusterBenchOptions o = ClusterBenchOptions.parse();
    assertThat(o.jobs()).containsExactly(100, 1000, 2000, 5000);
    assertThat(o.workloads())
        .containsExactly(Workload.W2, Workload.W1, Workload.M1, Workload.MIDNIGHT);
    assertThat(o.nodes()).isEqualTo(2);
    assertThat(o.executors()).isEqualTo(2);
    assertThat(o.queues()).isEqualTo(4);
    assertThat(o.sync()).isTrue();
    assertThat(o.warmup()).isEqualTo(Duration.ofSeconds(10));
    assertThat(o.window()).isEqualTo(Duration.ofSeconds(60));
    assertThat(o.m1Bursts()).isEqualTo(3);
    assertThat(o.midnightJobs()).containsExactly(100_000);
    // 30 s + 1 ms per job, whole seconds
    assertThat(o.midnightLead(100_000)).isEqualTo(Duration.ofSeconds(130));
    assertThat(o.midnightLead(1)).isEqualTo(Duration.ofSeconds(31));
    assertThat(o.childJvmOptions())
        .containsExactly(
            "-Xmx512m",
            "-XX:+UseSerialGC",
            "-XX:MetaspaceSize=128m",
            "-Xss512k",
            "-XX:-UseDynamicNumberOfCompilerThreads");
    assertThat(o.writeJobs()).isEqualTo(10_000);
    assertThat(o.writeAt()).isEqualTo(1_000);
    assertThat(o.shards()).isEqualTo(64);
    assertThat(o.redisConfig()).isEmpty();
    assertThat(o.soakMinutes()).isZero();
    assertThat(o.soakJobs()).isEqualTo(2_000);
    assertThat(o.soakWorkload()).isEqualTo(Workload.W2);
    assertThat(o.helpRequested()).isFalse();
  }

  @Test
  void theExistingOptionNamesKeepTheirNameEqualsValueSyntax() {
    ClusterBenchOptions o =
        ClusterBenchOptions.parse(
            "--jobs=100,1000",
            "--workloads=W1,W2",
            "--nodes=3",
            "--executors=1",
            "--queues=2",
            "--warmup-s=45",
            "--window-s=20",
            "--child-jvm=-Xmx256m,-XX:+UseSerialGC",
            "--write-jobs=0",
            "--write-at=100",
            "--shards=16",
            "--redis-config=rdbcompression:no,appendfsync:no");
    assertThat(o.jobs()).containsExactly(100, 1000);
    assertThat(o.workloads()).containsExactly(Workload.W1, Workload.W2);
    assertThat(o.nodes()).isEqualTo(3);
    assertThat(o.executors()).isEqualTo(1);
    assertThat(o.queues()).isEqualTo(2);
    assertThat(o.warmup()).isEqualTo(Duration.ofSeconds(45));
    assertThat(o.window()).isEqualTo(Duration.ofSeconds(20));
    assertThat(o.childJvmOptions()).containsExactly("-Xmx256m", "-XX:+UseSerialGC");
    assertThat(o.writeJobs()).isZero();
    assertThat(o.writeAt()).isEqualTo(100);
    assertThat(o.shards()).isEqualTo(16);
    assertThat(o.redisConfig())
        .hasSize(2)
        .containsAllEntriesOf(Map.of("rdbcompression", "no", "appendfsync", "no"));
    assertThat(List.copyOf(o.redisConfig().keySet()))
        .containsExactly("rdbcompression", "appendfsync");
  }

  @Test
  void theNewOptions() {
    ClusterBenchOptions o =
        ClusterBenchOptions.parse(
            "--sync=false",
            "--workloads=m1,midnight",
            "--m1-bursts=2",
            "--midnight-jobs=1000,20000",
            "--midnight-lead-s=90",
            "--soak-min=15",
            "--soak-jobs=2000",
            "--soak-workload=W1");
    assertThat(o.sync()).isFalse();
    assertThat(o.workloads()).containsExactly(Workload.M1, Workload.MIDNIGHT);
    assertThat(o.m1Bursts()).isEqualTo(2);
    assertThat(o.midnightJobs()).containsExactly(1_000, 20_000);
    assertThat(o.midnightLead(20_000)).isEqualTo(Duration.ofSeconds(90));
    assertThat(o.soakMinutes()).isEqualTo(15);
    assertThat(o.soakJobs()).isEqualTo(2_000);
    assertThat(o.soakWorkload()).isEqualTo(Workload.W1);
    assertThat(ClusterBenchOptions.parse("--sync").sync()).isTrue();
    assertThat(ClusterBenchOptions.parse("--sync=true").sync()).isTrue();
  }

  @Test
  void anUnknownOptionIsAClearError() {
    assertThatThrownBy(() -> ClusterBenchOptions.parse("--jobs=100", "--bogus=1"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("Unknown option: '--bogus=1'");
  }

  @Test
  void badValuesNameTheirOption() {
    assertThatThrownBy(() -> ClusterBenchOptions.parse("--jobs=100,many"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("--jobs");
    assertThatThrownBy(() -> ClusterBenchOptions.parse("--workloads=W3"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("--workloads");
    assertThatThrownBy(() -> ClusterBenchOptions.parse("--executors=5", "--queues=4"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("--executors");
    assertThatThrownBy(() -> ClusterBenchOptions.parse("--soak-min=5", "--soak-workload=MIDNIGHT"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("--soak-workload");
    assertThatThrownBy(() -> ClusterBenchOptions.parse("--redis-config=rdbcompression"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("name:value");
    assertThatThrownBy(() -> ClusterBenchOptions.parse("--workloads=W1", "--jobs=100001"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("W1 supports at most 100000");
  }

  @Test
  void helpIsRecognisedAndTheUsageShowsEveryOptionWithItsDefault() {
    assertThat(ClusterBenchOptions.parse("--help").helpRequested()).isTrue();
    assertThat(ClusterBenchOptions.parse("-h").helpRequested()).isTrue();
    String usage = ClusterBenchOptions.usage();
    assertThat(usage)
        .contains("--jobs=J[,J...]")
        .contains("Default: 100,1000,2000,5000")
        .contains("Default: W2,W1,M1,MIDNIGHT")
        .contains("--sync")
        .contains("--m1-bursts")
        .contains("--midnight-jobs")
        .contains("Default: 100000")
        .contains("--soak-min")
        .contains("--soak-jobs")
        .contains("--soak-workload")
        .contains("Default: -Xmx512m,-XX:+UseSerialGC,-XX:MetaspaceSize=128m");
  }
}
