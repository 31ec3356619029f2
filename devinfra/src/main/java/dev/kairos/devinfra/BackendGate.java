package dev.kairos.devinfra;

import java.util.Optional;

/**
 * Decides whether a {@link RealInfra} class can run on the selected backend. The embedded kit
 * always can; the containers backend needs a Docker engine and components it provides. When it
 * cannot, the reason is printed and the class is skipped (a JUnit assumption), never failed and
 * never run on the embedded kit instead.
 */
final class BackendGate {

  private final InfraBackend backend;
  private final DockerProbe docker;

  BackendGate(InfraBackend backend, DockerProbe docker) {
    this.backend = backend;
    this.docker = docker;
  }

  InfraBackend backend() {
    return backend;
  }

  /** Why {@code testClass} must be skipped on this backend, or empty when it can run. */
  Optional<String> skipReason(String testClass, InfraRequest request) {
    if (backend == InfraBackend.EMBEDDED) {
      return Optional.empty();
    }
    Optional<String> why =
        docker.unavailableReason().or(() -> ContainerStarter.unsupported(request));
    return why.map(
        reason ->
            testClass
                + " SKIPPED on -D"
                + InfraBackend.PROPERTY
                + "=containers: "
                + reason
                + "; the embedded kit is not used instead (drop the flag to run on it)");
  }
}
