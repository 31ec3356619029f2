package dev.kairos.node.system.zookeeper;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.List;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * The ACL of every znode a node creates while {@code kairos.zookeeper.auth} is on: all rights to
 * the digest identity that created it, none to anyone else.
 *
 * <p>One ACL for every path, not one per kind of znode: the nodes of a cluster read every member
 * and change each other's znodes (a new leader replaces its predecessor's leader znode and prunes
 * terms other nodes allocated), which only works if they all act as the same identity, and nothing
 * outside the cluster has a reason to read them. Curator asks this provider for the parents {@code
 * creatingParentContainersIfNeeded} makes too, so the Kairos root and its {@code members}, {@code
 * terms} and {@code draining} containers are covered, and so are the ancestors of a multi-level
 * root path that did not exist yet.
 */
final class ZookeeperAcl implements ACLProvider {

  /** ZooKeeper's built-in scheme: the server derives the identity from "user:password" alone. */
  static final String DIGEST = "digest";

  /** {@code auth} stands for "whoever created it": the server puts the session's digest id in. */
  private static final List<ACL> CREATOR_ONLY = ZooDefs.Ids.CREATOR_ALL_ACL;

  private ZookeeperAcl() {}

  /**
   * Adds the credentials and this provider to {@code builder} when {@code auth} has them; without
   * them the builder is left alone, so Curator's defaults (open ACLs, no authentication) hold.
   */
  static CuratorFrameworkFactory.Builder apply(
      CuratorFrameworkFactory.Builder builder, ZookeeperProperties.Auth auth) {
    if (!auth.hasCredentials()) {
      return builder;
    }
    // Curator re-sends these on every new ZooKeeper handle, so a session recreated after an
    // expiry is authenticated before its first request.
    return builder
        .authorization(DIGEST, (auth.getUsername() + ":" + auth.getPassword()).getBytes(UTF_8))
        .aclProvider(new ZookeeperAcl());
  }

  @Override
  public List<ACL> getDefaultAcl() {
    return CREATOR_ONLY;
  }

  @Override
  public List<ACL> getAclForPath(String path) {
    return CREATOR_ONLY;
  }

  @Override
  public String toString() {
    return "ZookeeperAcl[creator only]";
  }
}
