package dev.kairos.node.api.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One page of the job list, sorted by id.
 *
 * @param page the page number asked for with {@code page=} (offset paging); absent when the page
 *     was asked for with a cursor
 * @param total jobs matching over all pages; absent when not known exactly (a filter by handler,
 *     enabled with others, or text whose scan did not see the whole range in this call)
 * @param totalExact whether {@code total} is present
 * @param nextCursor pass it as {@code cursor} for the next page; absent on the last page. A page
 *     may hold fewer than {@code size} items (even none) and still have one, when its scan spent
 *     the request's budget ({@code kairos.api.job-scan-budget})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record JobPage(
    List<JobView> items,
    Integer page,
    int size,
    Long total,
    boolean totalExact,
    String nextCursor) {}
