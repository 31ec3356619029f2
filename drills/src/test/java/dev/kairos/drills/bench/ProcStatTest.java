package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProcStatTest {

  @Test
  void processTicksAreUtimePlusStimePlusReapedChildren() {
    String line =
        "4242 (java) S 1 4242 4242 0 -1 4194560 123 0 0 0 1500 250 3 4 20 0 40 0 9999 123456 789"
            + " 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 17 1 0 0 0 0 0";
    assertThat(ProcStat.processTicks(line)).isEqualTo(1500 + 250 + 3 + 4);
  }

  @Test
  void threadTicksAreTheThreadsOwnUtimePlusStime() {
    String line =
        "4243 (C2 CompilerThre) S 1 4242 4242 0 -1 4194560 123 0 0 0 700 30 3 4 20 0 40 0 9999"
            + " 123456 789 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 17 1 0 0 0 0 0";
    assertThat(ProcStat.threadTicks(line)).isEqualTo(730);
  }

  @Test
  void processTicksSurviveSpacesAndParenthesesInTheCommandName() {
    String line = "77 (a (weird) name) R 1 77 77 0 -1 0 0 0 0 0 10 20 0 0 20 0 1 0 5 0 0";
    assertThat(ProcStat.processTicks(line)).isEqualTo(30);
    // (cutime and cstime are 0 on that line)
  }

  @Test
  void aLineWithoutCommandIsRejected() {
    assertThatThrownBy(() -> ProcStat.processTicks("garbage"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void machineBusyExcludesIdleAndIowaitAndGuestIsNotCountedTwice() {
    String stat =
        "cpu  100 5 50 1000 20 3 2 1 40 0\n" + "cpu0 50 2 25 500 10 1 1 0 20 0\n" + "intr 12345\n";
    ProcStat.MachineTicks t = ProcStat.machineTicks(stat);
    assertThat(t.total()).isEqualTo(100 + 5 + 50 + 1000 + 20 + 3 + 2 + 1);
    assertThat(t.busy()).isEqualTo(100 + 5 + 50 + 3 + 2 + 1);
  }

  @Test
  void loadAverageIsTheFirstField() {
    assertThat(ProcStat.loadAverage1("1.25 0.80 0.40 2/345 6789\n")).isEqualTo(1.25);
  }

  @Test
  void ticksBecomeMicroseconds() {
    assertThat(CpuMeter.ticksToMicros(150, 100)).isEqualTo(1_500_000);
    assertThat(CpuMeter.ticksToMicros(1, 250)).isEqualTo(4_000);
  }

  @Test
  void hotSpotCompilerThreadsAreTheJitThreads() {
    assertThat(ProcStat.isJitThread("C2 CompilerThre\n")).isTrue();
    assertThat(ProcStat.isJitThread("C1 CompilerThre")).isTrue();
    assertThat(ProcStat.isJitThread("lettuce-epollEv")).isFalse();
    assertThat(ProcStat.isJitThread("VM Thread")).isFalse();
  }

  @Test
  void theCurrentJvmHasJitThreadsWithTicks() {
    assertThat(ProcStat.readJitThreadTicks(ProcessHandle.current().pid())).isNotEmpty();
    assertThat(ProcStat.readJitThreadTicks(Long.MAX_VALUE)).isEmpty();
  }

  @Test
  void contextSwitchesAreVoluntaryPlusNonvoluntary() {
    String status =
        "Name:\tkairos-wheel-no\nState:\tS (sleeping)\nThreads:\t1\n"
            + "voluntary_ctxt_switches:\t1200\nnonvoluntary_ctxt_switches:\t34\n";
    assertThat(ProcStat.contextSwitches(status)).isEqualTo(1_234);
  }

  @Test
  void aStatusWithoutContextSwitchCountsIsRejected() {
    assertThatThrownBy(() -> ProcStat.contextSwitches("Name:\tx\nvoluntary_ctxt_switches:\t1\n"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void thisProcessHasContextSwitches() {
    assertThat(ProcStat.readContextSwitches(ProcessHandle.current().pid())).isPresent();
    assertThat(ProcStat.readContextSwitches(Long.MAX_VALUE)).isEmpty();
  }

  @Test
  void aProcessTreeHoldsTheProcessAndItsChildrenAndSumsTheirTicks() throws Exception {
    long self = ProcessHandle.current().pid();
    Process child = new ProcessBuilder("sleep", "30").start();
    try {
      assertThat(ProcStat.processTree(self)).startsWith(self).contains(child.pid());
      // The process alone first: its counts only grow, so the tree read after it is at least that.
      long ticks = ProcStat.readProcessTicks(self).getAsLong();
      assertThat(ProcStat.readTreeTicks(self).getAsLong()).isGreaterThanOrEqualTo(ticks);
      long switches = ProcStat.readContextSwitches(self).getAsLong();
      assertThat(ProcStat.readTreeContextSwitches(self).getAsLong())
          .isGreaterThanOrEqualTo(switches);
    } finally {
      child.destroy();
      child.waitFor();
    }
    assertThat(ProcStat.processTree(Long.MAX_VALUE)).isEmpty();
    assertThat(ProcStat.readTreeTicks(Long.MAX_VALUE)).isEmpty();
  }
}
