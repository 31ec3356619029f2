package dev.kairos.core.time;

/** The one clock the whole cluster agrees on. */
public interface ReferenceTimeSource {

  /**
   * Reads the reference clock once (a blocking round trip).
   *
   * @throws RuntimeException when the reference cannot be reached
   */
  Reading read();

  /**
   * One reading.
   *
   * @param epochMicros the reference time in epoch microseconds
   * @param reference which clock answered (a master's node id and address); readings of different
   *     references are never mixed, because their clocks differ
   */
  record Reading(long epochMicros, String reference) {}
}
