package dev.kairos.demo;

/** Starts the embedded infrastructure, a scheduler node and a demo executor. */
public final class DemoMain {

  private DemoMain() {}

  public static void main(String[] args) {}
}
