package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HeapAfterGcTest {

  @Test
  void serialGcSumsTheYoungAndTenuredGenerations() {
    String info =
        """
        12345:
         def new generation   total 9792K, used 5347K [0x00000000e0000000, 0x00000000e0aa0000)
          eden space 8704K,  61% used [0x00000000e0000000, 0x00000000e05348f8)
          from space 1088K,   0% used [0x00000000e0880000, 0x00000000e0880000)
          to   space 1088K,   0% used [0x00000000e0990000, 0x00000000e0990000)
         tenured generation   total 21888K, used 13541K [0x00000000eaaa0000, 0x00000000ec000000)
           the space 21888K,  61% used [0x00000000eaaa0000, 0x00000000eb7d9538)
         Metaspace       used 49375K, committed 49728K, reserved 1114112K
          class space    used 6303K, committed 6464K, reserved 1048576K
        """;
    assertThat(HeapAfterGc.usedBytes(info)).hasValue((5347L + 13541L) * 1024);
  }

  @Test
  void g1ReportsOneHeapLine() {
    String info =
        """
        777:
         garbage-first heap   total 262144K, used 23069K [0x00000000f0000000, 0x0000000100000000)
          region size 1024K, 3 young (3072K), 0 survivors (0K)
         Metaspace       used 1000K, committed 1100K, reserved 1114112K
        """;
    assertThat(HeapAfterGc.usedBytes(info)).hasValue(23069L * 1024);
  }

  @Test
  void anErrorTextHasNoHeap() {
    assertThat(HeapAfterGc.usedBytes("com.sun.tools.attach.AttachNotSupportedException")).isEmpty();
  }
}
