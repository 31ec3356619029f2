package dev.kairos.node.system;

import jakarta.validation.constraints.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** Who this node is in the cluster ({@code kairos.node.*}). */
@Validated
@ConfigurationProperties("kairos.node")
public class NodeProperties {

  /** Letters, digits, '.', '_' and '-': the name appears in Redis keys and znode names. */
  public static final String NAME_PATTERN = "[A-Za-z0-9][A-Za-z0-9._-]{0,99}";

  /**
   * Stable name of this node, kept across restarts: its persisted wheel and inflight keys carry it.
   * Empty means {@code <hostname>-<server.port>}; set it explicitly when the port is random.
   */
  @Pattern(
      regexp = "|" + NAME_PATTERN,
      message =
          "must be empty or 1-100 of letters, digits, '.', '_', '-' (not starting with one"
              + " of '.', '_', '-')")
  private String name = "";

  /**
   * host:port at which other nodes reach this one (leader confirmation round); empty means the
   * local host's address and {@code server.port}.
   */
  @Pattern(regexp = "|[^\\s:]+:\\d{1,5}", message = "must be empty or host:port")
  private String internalAddress = "";

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getInternalAddress() {
    return internalAddress;
  }

  public void setInternalAddress(String internalAddress) {
    this.internalAddress = internalAddress;
  }
}
