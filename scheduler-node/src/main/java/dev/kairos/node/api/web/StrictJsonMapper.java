package dev.kairos.node.api.web;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;

/** Derives the strict reader of {@link StrictJson} bodies from the application's mapper. */
public final class StrictJsonMapper {

  private StrictJsonMapper() {}

  public static ObjectMapper from(ObjectMapper base) {
    ObjectMapper strict = base.copy();
    strict.enable(
        DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
        DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES,
        DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS,
        DeserializationFeature.FAIL_ON_TRAILING_TOKENS,
        DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
    strict.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
    strict.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    for (LogicalType type :
        new LogicalType[] {
          LogicalType.Integer,
          LogicalType.Float,
          LogicalType.Boolean,
          LogicalType.Textual,
          LogicalType.Enum,
          LogicalType.POJO,
          LogicalType.Collection
        }) {
      for (CoercionInputShape shape :
          new CoercionInputShape[] {
            CoercionInputShape.String,
            CoercionInputShape.Integer,
            CoercionInputShape.Float,
            CoercionInputShape.Boolean,
            CoercionInputShape.EmptyString
          }) {
        if (!sameShape(type, shape)) {
          strict.coercionConfigFor(type).setCoercion(shape, CoercionAction.Fail);
        }
      }
    }
    return strict;
  }

  /** The shapes that are the type itself, not a coercion. */
  private static boolean sameShape(LogicalType type, CoercionInputShape shape) {
    return switch (type) {
      case Integer -> shape == CoercionInputShape.Integer;
      case Float -> shape == CoercionInputShape.Float || shape == CoercionInputShape.Integer;
      case Boolean -> shape == CoercionInputShape.Boolean;
      case Textual, Enum ->
          shape == CoercionInputShape.String || shape == CoercionInputShape.EmptyString;
      default -> false;
    };
  }
}
