package dev.kairos.node.api.trigger;

import dev.kairos.core.log.LogLine;
import java.util.List;

/**
 * A page of a trigger's handler log.
 *
 * @param triggerId the trigger
 * @param lines lines after the request's cursor, in order
 * @param nextCursor pass as {@code after} to read on (the last line's seq, or the request's cursor)
 * @param more the page is full: more lines are there already, ask again at once
 * @param finished the run has ended: once {@code more} is false too, no line will ever follow
 * @param state the trigger's state when the page was read
 * @param source where the lines came from: redis (live, recent), postgresql (history) or none
 */
public record TriggerLogPage(
    String triggerId,
    List<LogLine> lines,
    long nextCursor,
    boolean more,
    boolean finished,
    String state,
    String source) {}
