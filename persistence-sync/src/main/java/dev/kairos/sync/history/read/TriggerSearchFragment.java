package dev.kairos.sync.history.read;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;

/**
 * The trigger search across jobs, a custom repository fragment: its criteria are all optional, so
 * the query is built per call (Criteria API) rather than declared. Kept as a fragment instead of
 * {@code JpaSpecificationExecutor}, which would also bring {@code delete(Specification)}.
 */
public interface TriggerSearchFragment {

  /** Triggers matching {@code search}, newest scheduled fire first (ties by trigger id). */
  Page<TriggerEntity> search(TriggerSearch search, Pageable page);
}
