package dev.kairos.node.api.batch;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What a batch operation did to each job, in request order. Jobs live in different shards, so a
 * batch is not atomic: each id is applied on its own and reports its own outcome.
 *
 * @param succeeded ids whose outcome is {@code DONE}
 */
public record BatchResult(String action, int succeeded, int notFound, List<Item> items) {

  /**
   * @param outcome {@code DONE} or {@code NOT_FOUND}
   * @param version the job's version after the operation (absent when deleted or not found)
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Item(String id, String outcome, Long version) {}
}
