package dev.kairos.cluster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CliOptionsTest {

  @Test
  void acceptsSpaceAndEqualsForms() {
    CliOptions o = CliOptions.parse("up", "--nodes", "3", "--executors=2", "--base-port", "9000");
    assertThat(o.command()).isEqualTo("up");
    assertThat(o.nodes()).isEqualTo(3);
    assertThat(o.executors()).isEqualTo(2);
    assertThat(o.basePort()).isEqualTo(9000);
    assertThat(o.dir().isAbsolute() && o.dir().endsWith(Path.of("target", "local-cluster")))
        .isTrue();
    assertThat(o.jvmOptions()).isEqualTo(CliOptions.DEFAULT_JVM_OPTIONS);
  }

  @Test
  void splitsJvmOptionsOnSpaces() {
    assertThat(CliOptions.parse("up", "--jvm", "-Xmx1g  -XX:+UseG1GC").jvmOptions())
        .containsExactly("-Xmx1g", "-XX:+UseG1GC");
  }

  @Test
  void rejectsUnknownCommandsOptionsAndMissingValues() {
    assertThatThrownBy(() -> CliOptions.parse("start")).hasMessageContaining("unknown command");
    assertThatThrownBy(() -> CliOptions.parse("up", "--node", "3"))
        .hasMessageContaining("unknown option --node");
    assertThatThrownBy(() -> CliOptions.parse("up", "--nodes"))
        .hasMessageContaining("--nodes needs a value");
    assertThatThrownBy(() -> CliOptions.parse("up", "--nodes", "0"))
        .hasMessageContaining("--nodes ≥ 1");
  }

  @Test
  void drainTakesTheNodeNameAndRequiresIt() {
    CliOptions o = CliOptions.parse("drain", "node-2", "--dir", "x");
    assertThat(o.command()).isEqualTo("drain");
    assertThat(o.target()).isEqualTo("node-2");
    assertThat(CliOptions.parse("up").target()).isEmpty();
    assertThatThrownBy(() -> CliOptions.parse("drain"))
        .hasMessageContaining("drain needs the node to drain");
    assertThatThrownBy(() -> CliOptions.parse("up", "node-2"))
        .hasMessageContaining("expected --name value");
  }

  @Test
  void aBadCommandLineExitsWithTwoAndPrintsUsage() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int exit = LocalClusterCli.run(new PrintStream(bytes, true, StandardCharsets.UTF_8), "restart");
    assertThat(exit).isEqualTo(2);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("usage: local-cluster.sh");
  }
}
