package dev.kairos.node.api.trigger;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kairos.sync.history.TriggerRecord;
import org.springframework.boot.jackson.JsonMixin;

/**
 * How the API writes a {@link TriggerRecord} (persistence-sync's, which knows no JSON): absent
 * values are left out, as everywhere in a {@link TriggerView}. The view's own {@code @JsonInclude}
 * does not reach the fields it unwraps: Jackson writes those with the record's settings.
 */
@JsonMixin(TriggerRecord.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
abstract class TriggerRecordJson {}
