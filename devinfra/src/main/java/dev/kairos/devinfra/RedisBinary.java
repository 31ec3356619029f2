package dev.kairos.devinfra;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import redis.embedded.core.ExecutableProvider;

/**
 * The redis-server binary shipped inside embedded-redis, extracted once per directory (the library
 * would otherwise copy 10 MB into java.io.tmpdir for every server it starts).
 */
final class RedisBinary {

  private RedisBinary() {}

  static synchronized Path extractInto(Path binDir) {
    try {
      Files.createDirectories(binDir);
      try (var existing = Files.list(binDir)) {
        var found =
            existing
                .filter(p -> p.getFileName().toString().startsWith("redis-server"))
                .filter(Files::isExecutable)
                .findFirst();
        if (found.isPresent()) {
          return found.get();
        }
      }
      File binary = ExecutableProvider.newJarResourceProvider(binDir.toFile()).get();
      return binary.toPath();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot extract redis-server into " + binDir, e);
    }
  }
}
