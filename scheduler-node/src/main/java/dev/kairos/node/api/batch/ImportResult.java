package dev.kairos.node.api.batch;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kairos.node.api.job.Warning;
import java.util.List;

/**
 * What an import did (or, as a dry run, would do) per job, keyed by job id.
 *
 * @param created jobs that did not exist
 * @param updated jobs whose definition differs from the stored one
 * @param unchanged jobs stored exactly as imported (nothing written)
 * @param conflicts jobs changed by someone else between the plan and the write (not written)
 */
public record ImportResult(
    boolean dryRun, int created, int updated, int unchanged, int conflicts, List<Item> items) {

  /**
   * @param action {@code CREATE}, {@code UPDATE}, {@code UNCHANGED}, or {@code CONFLICT}
   * @param applied whether this call wrote it (never in a dry run)
   * @param version the version stored after the write (absent in a dry run)
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Item(
      String id, String action, boolean applied, Long version, List<Warning> warnings) {}
}
