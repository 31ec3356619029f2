package dev.kairos.coordinator.cluster;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.core.error.KairosException;
import java.io.IOException;

/** JSON of the znode payloads. */
final class Json {

  private static final ObjectMapper MAPPER =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private Json() {}

  static byte[] write(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new KairosException("cannot write " + value + " as JSON", e);
    }
  }

  static <T> T read(byte[] data, Class<T> type, String path) {
    try {
      return MAPPER.readValue(data, type);
    } catch (IOException e) {
      throw new KairosException("malformed " + type.getSimpleName() + " in znode " + path, e);
    }
  }
}
