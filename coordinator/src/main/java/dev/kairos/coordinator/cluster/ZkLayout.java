package dev.kairos.coordinator.cluster;

/**
 * The znodes of one Kairos cluster under {@code root}: {@code members/<node>} (ephemeral), {@code
 * terms/<T zero-padded>} (persistent, one per term ever allocated) and {@code leader} (ephemeral).
 */
public record ZkLayout(String root) {

  public ZkLayout {
    if (!root.startsWith("/") || root.endsWith("/")) {
      throw new IllegalArgumentException("root must start and not end with '/': " + root);
    }
  }

  public String members() {
    return root + "/members";
  }

  public String member(String nodeName) {
    return members() + "/" + nodeName;
  }

  public String terms() {
    return root + "/terms";
  }

  /** Zero-padded so that the children sort by term. */
  public String term(long term) {
    return terms() + "/" + String.format("%019d", term);
  }

  public String leader() {
    return root + "/leader";
  }

  public String draining() {
    return root + "/draining";
  }

  public String draining(String nodeName) {
    return draining() + "/" + nodeName;
  }
}
