package dev.kairos.devinfra;

import java.util.Optional;
import org.testcontainers.DockerClientFactory;

/**
 * Whether a Docker engine is reachable, asked once per JVM through Testcontainers (which also
 * honours {@code DOCKER_HOST} and {@code ~/.testcontainers.properties}).
 */
@FunctionalInterface
interface DockerProbe {

  /** Empty when Docker is reachable, else why the containers backend cannot run. */
  Optional<String> unavailableReason();

  /** The real probe. */
  DockerProbe TESTCONTAINERS =
      new DockerProbe() {
        private volatile Optional<String> answer;

        @Override
        public Optional<String> unavailableReason() {
          Optional<String> known = answer;
          if (known == null) {
            known = ask();
            answer = known;
          }
          return known;
        }

        private Optional<String> ask() {
          try {
            return DockerClientFactory.instance().isDockerAvailable()
                ? Optional.empty()
                : Optional.of(
                    "no Docker engine is reachable (Testcontainers'"
                        + " DockerClientFactory.isDockerAvailable() is false)");
          } catch (RuntimeException | LinkageError e) {
            return Optional.of("Docker could not be probed: " + e);
          }
        }
      };
}
