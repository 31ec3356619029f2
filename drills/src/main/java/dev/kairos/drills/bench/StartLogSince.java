package dev.kairos.drills.bench;

import dev.kairos.drills.DrillExecutor;
import dev.kairos.drills.StartLedger;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The executors' start logs from a mark on ({@link #mark}: their sizes then), read line by line and
 * kept only for the trigger ids asked about: at a million jobs the logs hold millions of lines, and
 * a window needs a few thousand of them. Each line is one {@code write(2)} ({@code StartRecorder}),
 * so a read sees whole lines.
 */
final class StartLogSince {

  private final Map<Path, Long> offsets;

  private StartLogSince(Map<Path, Long> offsets) {
    this.offsets = offsets;
  }

  /** The logs' current ends. */
  static StartLogSince mark(List<DrillExecutor> executors) {
    Map<Path, Long> offsets = new LinkedHashMap<>();
    for (DrillExecutor e : executors) {
      try {
        offsets.put(e.startLog(), Files.exists(e.startLog()) ? Files.size(e.startLog()) : 0L);
      } catch (IOException ex) {
        throw new UncheckedIOException("cannot read " + e.startLog(), ex);
      }
    }
    return new StartLogSince(offsets);
  }

  /** Every start logged since the mark whose trigger id {@code wanted} accepts, by trigger id. */
  Map<String, List<StartLedger.Start>> read(Predicate<String> wanted) {
    Map<String, List<StartLedger.Start>> starts = new HashMap<>();
    offsets.forEach(
        (log, offset) -> {
          if (!Files.exists(log)) {
            return;
          }
          try (FileChannel channel = FileChannel.open(log, StandardOpenOption.READ)) {
            channel.position(offset);
            BufferedReader reader =
                new BufferedReader(
                    new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8),
                    1 << 16);
            String line;
            while ((line = reader.readLine()) != null) {
              String[] parts = line.split(" ");
              if (parts.length != 3 || !wanted.test(parts[0])) {
                continue;
              }
              starts
                  .computeIfAbsent(parts[0], k -> new ArrayList<>(1))
                  .add(new StartLedger.Start(parts[0], Long.parseLong(parts[1]), parts[2]));
            }
          } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log, e);
          }
        });
    return starts;
  }
}
