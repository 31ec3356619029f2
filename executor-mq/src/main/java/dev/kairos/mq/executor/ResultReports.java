package dev.kairos.mq.executor;

/**
 * Which results an executor publishes on the result topic. A run's end is recorded in Redis by the
 * executor itself ({@code complete_trigger.lua}, whose event the scheduler's lifecycle reacts to),
 * so publishing every result as well costs a broker send, a consume and a second script per fire
 * for nothing the scheduler does not already have.
 */
public enum ResultReports {

  /**
   * Only what Redis does not already hold (the default): the result of a run whose completion the
   * executor could not write (the scheduler's result consumer then writes it), and the reports
   * about a delivery that change no record (DUPLICATE, EXPIRED, a handler that is not hosted).
   */
  EXCEPTIONS,

  /** Every run's result as well: for deployments that consume the result topic themselves. */
  ALL
}
