package dev.kairos.node.api.web;

import dev.kairos.node.api.ApiProperties;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import java.util.List;

/**
 * A validated page request: {@code page} counts from 0, {@code size} in 1..{@code
 * kairos.api.max-page-size} (default {@code kairos.api.default-page-size}).
 */
public record PageRequest(int page, int size) {

  public static PageRequest of(Integer page, Integer size, ApiProperties limits) {
    int p = page == null ? 0 : page;
    int s = size == null ? limits.getDefaultPageSize() : size;
    if (p < 0) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "page", "must be >= 0 but was " + p);
    }
    if (s < 1) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "size", "must be >= 1 but was " + s);
    }
    if (s > limits.getMaxPageSize()) {
      throw ApiProblemException.field(
          ProblemType.LIMIT_EXCEEDED,
          "size",
          "must be at most "
              + limits.getMaxPageSize()
              + " (kairos.api.max-page-size) but was "
              + s);
    }
    return new PageRequest(p, s);
  }

  public long offset() {
    return (long) page * size;
  }

  /** This page of an already sorted list. */
  public <T> List<T> slice(List<T> all) {
    if (offset() >= all.size()) {
      return List.of();
    }
    return all.subList((int) offset(), (int) Math.min(all.size(), offset() + size));
  }
}
