package dev.kairos.node.api.audit;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * A page of the audit trail, newest first.
 *
 * @param limit the most entries a page holds
 * @param nextCursor pass as {@code cursor} for the next (older) page; absent on the last page
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record AuditPage(List<AuditView> items, int limit, String nextCursor) {}
