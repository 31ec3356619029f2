package dev.kairos.node.api.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.kairos.audit.AuditDiff;
import dev.kairos.audit.AuditEntry;
import dev.kairos.audit.AuditRecord;
import java.time.Instant;
import java.util.List;

/**
 * One audit entry as the API shows it: the stored entry with its job definitions as JSON objects
 * and the diff computed from them.
 *
 * @param id the entry's stream id ({@code <ms>-<seq>}), unique and ordering the trail
 * @param at {@code atMs} as an ISO-8601 instant
 */
record AuditView(
    String id,
    long atMs,
    String at,
    String actor,
    String actorSource,
    String action,
    String app,
    String jobId,
    String triggerId,
    Long versionBefore,
    Long versionAfter,
    JsonNode jobBefore,
    JsonNode jobAfter,
    String scriptSha256,
    String detail,
    List<AuditDiff.FieldChange> diff) {

  private static final ObjectMapper JSON = new ObjectMapper();

  static AuditView of(AuditRecord record) {
    AuditEntry e = record.entry();
    return new AuditView(
        record.id().toString(),
        e.atMs(),
        Instant.ofEpochMilli(e.atMs()).toString(),
        e.actor(),
        e.actorSource(),
        e.action(),
        e.app(),
        e.jobId(),
        e.triggerId(),
        e.versionBefore(),
        e.versionAfter(),
        json(e.jobBefore()),
        json(e.jobAfter()),
        e.scriptSha256(),
        e.detail(),
        record.diff());
  }

  private static JsonNode json(String text) {
    if (text == null) {
      return null;
    }
    try {
      return JSON.readTree(text);
    } catch (JsonProcessingException e) {
      return TextNode.valueOf(text);
    }
  }
}
