package dev.kairos.protocol.lost;

import java.util.List;

/**
 * One page of a shard's open-trigger index.
 *
 * @param read entries examined; the page was full when it equals the limit asked for
 * @param removed entries dropped from the index because their record had ended or expired
 * @param triggers the entries still DISPATCHED or RUNNING
 */
public record OpenPage(int read, int removed, List<OpenTrigger> triggers) {

  public OpenPage {
    triggers = List.copyOf(triggers);
  }
}
