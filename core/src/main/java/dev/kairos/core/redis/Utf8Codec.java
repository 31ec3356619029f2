package dev.kairos.core.redis;

import io.lettuce.core.codec.StringCodec;
import io.netty.buffer.ByteBufUtil;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Lettuce's UTF-8 string codec without its per-string garbage, for the fire path where every script
 * reply decodes dozens of strings per fire.
 *
 * <p>{@link StringCodec} decodes by wrapping each reply string in a Netty {@code ByteBuf} (itself
 * slicing the NIO buffer) and encodes each argument into a temporary pooled buffer first, because
 * its UTF-8 size estimate is not exact. Under load those wrappers were most of the bytes a
 * scheduler node allocated (JFR, `docs/benchmarks.md`), and young collections paused the JVM every
 * few seconds. This codec copies reply bytes straight into a {@code String} and reports the exact
 * UTF-8 size ({@link ByteBufUtil#utf8Bytes}, the count {@link ByteBufUtil#writeUtf8} writes), so
 * Lettuce writes arguments straight into the outgoing buffer. Bytes on the wire are unchanged.
 */
public final class Utf8Codec extends StringCodec {

  /** Shared: the codec holds no state. */
  public static final Utf8Codec INSTANCE = new Utf8Codec();

  /** Replies of this size or less are decoded through a per-thread scratch array. */
  static final int SCRATCH_BYTES = 1024;

  private static final ThreadLocal<byte[]> SCRATCH =
      ThreadLocal.withInitial(() -> new byte[SCRATCH_BYTES]);

  private Utf8Codec() {
    super(StandardCharsets.UTF_8);
  }

  @Override
  public String decodeKey(ByteBuffer bytes) {
    return decode(bytes);
  }

  @Override
  public String decodeValue(ByteBuffer bytes) {
    return decode(bytes);
  }

  @Override
  public int estimateSize(Object keyOrValue) {
    return keyOrValue instanceof CharSequence text ? ByteBufUtil.utf8Bytes(text) : 0;
  }

  @Override
  public boolean isEstimateExact() {
    return true;
  }

  /** Leaves the buffer's position where it was, as {@link StringCodec} does. */
  static String decode(ByteBuffer bytes) {
    if (bytes == null) {
      return null;
    }
    int length = bytes.remaining();
    if (length == 0) {
      return "";
    }
    if (bytes.hasArray()) {
      return new String(
          bytes.array(), bytes.arrayOffset() + bytes.position(), length, StandardCharsets.UTF_8);
    }
    byte[] target = length <= SCRATCH_BYTES ? SCRATCH.get() : new byte[length];
    bytes.get(bytes.position(), target, 0, length);
    return new String(target, 0, length, StandardCharsets.UTF_8);
  }
}
