package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedInfrastructureTest {

  @Test
  void componentThatCannotStartIsNamedWithItsCause(@TempDir Path tmp) throws Exception {
    Path notADirectory = Files.writeString(tmp.resolve("occupied"), "a file, not a directory");

    assertThatThrownBy(
            () ->
                EmbeddedInfrastructure.builder()
                    .workDir(notADirectory)
                    .redis(RedisMode.STANDALONE)
                    .start())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("redis could not start")
        .hasMessageContaining("cannot extract redis-server into " + notADirectory);
  }

  @Test
  void nothingRequestedStartsNothingAndClosesTwiceQuietly(@TempDir Path tmp) {
    EmbeddedInfrastructure infra = EmbeddedInfrastructure.builder().workDir(tmp).start();

    assertThat(infra.springProperties()).isEmpty();
    assertThat(infra.redis()).isNull();
    assertThat(infra.redisCluster()).isNull();
    assertThat(infra.zookeeper()).isNull();
    assertThat(infra.zookeeperEnsemble()).isNull();
    assertThat(infra.rocketMq()).isNull();
    assertThat(infra.postgres()).isNull();
    infra.close();
    infra.close();
  }
}
