package dev.kairos.node.api.batch;

import dev.kairos.node.api.web.StrictJson;
import java.util.List;

/** The job ids a batch operation applies to: 1..{@code kairos.api.max-batch-size}, distinct. */
public record BatchRequest(List<String> ids) implements StrictJson {}
