package dev.kairos.core.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.codec.StringCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class Utf8CodecTest {

  private static final List<String> SAMPLES =
      List.of(
          "",
          "kairos:{7}:trigger:job-1:1764213600000",
          "调度任务-é-ß",
          "emoji \uD83D\uDE80 pair",
          "lone surrogate \uD800 here",
          "x".repeat(Utf8Codec.SCRATCH_BYTES),
          "y".repeat(Utf8Codec.SCRATCH_BYTES + 1),
          "ü".repeat(Utf8Codec.SCRATCH_BYTES));

  @Test
  void encodesTheSameBytesAsLettucesCodecAndSaysExactlyHowMany() {
    for (String sample : SAMPLES) {
      ByteBuf ours = Unpooled.buffer();
      ByteBuf theirs = Unpooled.buffer();
      Utf8Codec.INSTANCE.encodeValue(sample, ours);
      StringCodec.UTF8.encodeValue(sample, theirs);
      assertThat(ByteBufUtil.getBytes(ours)).as(sample).isEqualTo(ByteBufUtil.getBytes(theirs));
      assertThat(Utf8Codec.INSTANCE.estimateSize(sample))
          .as(sample)
          .isEqualTo(ours.readableBytes());
    }
    assertThat(Utf8Codec.INSTANCE.isEstimateExact()).isTrue();
  }

  @Test
  void decodesDirectAndHeapBuffersLikeLettucesCodecWithoutMovingThem() {
    for (String sample : SAMPLES) {
      byte[] bytes = sample.getBytes(StandardCharsets.UTF_8);
      ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length + 3);
      direct.put(new byte[] {'a', 'b'}).put(bytes).put((byte) 'z');
      direct.position(2).limit(2 + bytes.length);
      ByteBuffer heap = ByteBuffer.wrap(("ab" + sample + "z").getBytes(StandardCharsets.UTF_8));
      heap.position(2).limit(2 + bytes.length);
      String expected = StringCodec.UTF8.decodeValue(direct.duplicate());

      assertThat(Utf8Codec.INSTANCE.decodeValue(direct)).as(sample).isEqualTo(expected);
      assertThat(Utf8Codec.INSTANCE.decodeKey(heap)).as(sample).isEqualTo(expected);
      assertThat(direct.position()).isEqualTo(2);
      assertThat(heap.position()).isEqualTo(2);
    }
  }
}
