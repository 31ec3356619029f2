package dev.kairos.drills.bench;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What Redis holds and how often it forked to rewrite its AOF, from {@code INFO}: the rewrite runs
 * in a child whose CPU grows with the dataset, and the dataset grows with the fire rate times the
 * trigger records' lifetime, so a row's rewrite cost depends on how long the cluster has fired.
 */
record RedisPersistence(
    long keys, long usedMemory, long aofCurrentSize, long forks, long aofRewrites) {

  /**
   * Parses the text of {@code INFO} (the default sections: persistence, stats, memory, keyspace).
   */
  static RedisPersistence parse(String info) {
    Map<String, String> fields = new HashMap<>();
    for (String line : info.split("\r?\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && !line.startsWith("#")) {
        fields.put(line.substring(0, colon), line.substring(colon + 1));
      }
    }
    // db0:keys=123,expires=120,avg_ttl=0
    long keys = 0;
    String db0 = fields.getOrDefault("db0", "");
    for (String kv : db0.split(",")) {
      if (kv.startsWith("keys=")) {
        keys = Long.parseLong(kv.substring("keys=".length()));
      }
    }
    return new RedisPersistence(
        keys,
        number(fields, "used_memory"),
        number(fields, "aof_current_size"),
        number(fields, "total_forks"),
        number(fields, "aof_rewrites"));
  }

  private static long number(Map<String, String> fields, String name) {
    String value = fields.get(name);
    return value == null || value.isBlank() ? -1 : Long.parseLong(value.trim());
  }

  /** This state at a window's end, with the forks and rewrites since {@code before}. */
  String line(RedisPersistence before) {
    return String.format(
        Locale.ROOT,
        "%d keys, %.0f MB used, AOF %.0f MB; in the window %d forks, %d AOF rewrites",
        keys,
        usedMemory / 1e6,
        aofCurrentSize / 1e6,
        forks - before.forks,
        aofRewrites < 0 ? -1 : aofRewrites - before.aofRewrites);
  }
}
