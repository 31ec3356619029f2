package dev.kairos.drills.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Redis's own per-command counters ({@code INFO commandstats}) over a window, so the bench can say
 * which commands the Redis CPU of a fire goes to. Scripts show up as {@code evalsha}; the commands
 * a script runs are counted too, under their own names.
 */
record RedisCommandStats(List<Command> commands) {

  /** One command's calls and the µs Redis spent executing it. */
  record Command(String name, long calls, long usec) {}

  /** Parses the text of {@code INFO commandstats}. */
  static RedisCommandStats parse(String info) {
    List<Command> commands = new ArrayList<>();
    for (String line : info.split("\r?\n")) {
      if (!line.startsWith("cmdstat_")) {
        continue;
      }
      int colon = line.indexOf(':');
      long calls = 0;
      long usec = 0;
      for (String field : line.substring(colon + 1).split(",")) {
        String[] kv = field.split("=", 2);
        if (kv[0].equals("calls")) {
          calls = Long.parseLong(kv[1]);
        } else if (kv[0].equals("usec")) {
          usec = Long.parseLong(kv[1]);
        }
      }
      commands.add(new Command(line.substring("cmdstat_".length(), colon), calls, usec));
    }
    return new RedisCommandStats(List.copyOf(commands));
  }

  /** The {@code top} commands by execution time, as calls and µs per fire. */
  String perFireLine(long fires, int top) {
    if (fires <= 0) {
      return "no fires";
    }
    return commands.stream()
        .sorted(Comparator.comparingLong(Command::usec).reversed())
        .limit(top)
        .map(
            c ->
                String.format(
                    Locale.ROOT,
                    "%s %.2f calls/%.1f µs",
                    c.name(),
                    c.calls() / (double) fires,
                    c.usec() / (double) fires))
        .collect(Collectors.joining(", ", "per fire: ", ""));
  }
}
