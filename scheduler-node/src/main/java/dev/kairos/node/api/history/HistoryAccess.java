package dev.kairos.node.api.history;

import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.sync.history.read.HistoryReader;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DataAccessException;

/**
 * The history read side as the controllers reach it: absent without a DataSource, and a PostgreSQL
 * that does not answer becomes a 503 problem instead of a 500.
 */
public final class HistoryAccess {

  private static final Logger log = LoggerFactory.getLogger(HistoryAccess.class);

  private final ObjectProvider<HistoryReader> reader;

  public HistoryAccess(ObjectProvider<HistoryReader> reader) {
    this.reader = reader;
  }

  public <T> T read(String what, Function<HistoryReader, T> query) {
    HistoryReader history = reader.getIfAvailable();
    if (history == null) {
      throw new ApiProblemException(
          ProblemType.POSTGRES_UNAVAILABLE,
          "this node has no PostgreSQL history (no DataSource, or kairos.history.enabled=false)");
    }
    try {
      return query.apply(history);
    } catch (DataAccessException e) {
      log.warn("{}: PostgreSQL unavailable ({})", what, e.getMostSpecificCause().toString());
      throw new ApiProblemException(
          ProblemType.POSTGRES_UNAVAILABLE, what + ": PostgreSQL did not answer");
    }
  }
}
