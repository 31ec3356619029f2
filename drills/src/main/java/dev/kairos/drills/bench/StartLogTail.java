package dev.kairos.drills.bench;

import dev.kairos.drills.DrillExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts the handler starts the executors log from a point on, without holding the lines: each call
 * reads what was appended since the previous one and counts its complete lines (one per start,
 * {@code StartRecorder}); a line still being written is counted by the next call.
 */
final class StartLogTail {

  private final Map<Path, Long> offsets = new LinkedHashMap<>();

  /** Starts counting at the logs' current ends. */
  StartLogTail(List<DrillExecutor> executors) {
    for (DrillExecutor e : executors) {
      offsets.put(e.startLog(), size(e.startLog()));
    }
  }

  /** Complete lines appended to the logs since the last call (or the construction). */
  long newLines() {
    long lines = 0;
    for (Map.Entry<Path, Long> e : offsets.entrySet()) {
      Path log = e.getKey();
      if (!Files.exists(log)) {
        continue;
      }
      try (FileChannel channel = FileChannel.open(log, StandardOpenOption.READ)) {
        long offset = e.getValue();
        long afterLastNewline = offset;
        ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
        long position = offset;
        int read;
        while ((read = channel.read(buffer, position)) > 0) {
          buffer.flip();
          for (int i = 0; i < read; i++) {
            if (buffer.get(i) == '\n') {
              lines++;
              afterLastNewline = position + i + 1;
            }
          }
          position += read;
          buffer.clear();
        }
        e.setValue(afterLastNewline);
      } catch (IOException ex) {
        throw new UncheckedIOException("cannot read " + log, ex);
      }
    }
    return lines;
  }

  private static long size(Path log) {
    try {
      return Files.exists(log) ? Files.size(log) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + log, e);
    }
  }
}
