package dev.kairos.core.model;

/**
 * Why a trigger exists. Scheduled fires are claimed from the due ZSET; the others are ad-hoc
 * triggers, submitted to the shard's ad-hoc ZSET and claimed by the same scan (see protocol's
 * {@code AdhocTriggers}). The trigger record stores it in {@code kind}; a record without the field
 * is a scheduled fire.
 */
public enum TriggerKind {
  /** A fire of the job's schedule. */
  SCHEDULED,
  /** "Trigger now" by an operator or the API, optionally with other parameters. */
  MANUAL,
  /** A retry of a failed attempt: attempt n + 1, linked to the previous attempt. */
  RETRY,
  /** A child job triggered by its parent's SUCCESS, linked to the parent's trigger. */
  CHILD
}
