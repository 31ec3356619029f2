package dev.kairos.node.system.zookeeper;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.imps.DefaultACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.Test;

class ZookeeperAclTest {

  @Test
  void withoutCredentialsTheBuilderKeepsCuratorsOpenDefaults() {
    CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder();
    ZookeeperAcl.apply(builder, new ZookeeperProperties.Auth());
    assertThat(builder.getAuthInfos()).isNullOrEmpty();
    assertThat(builder.getAclProvider()).isInstanceOf(DefaultACLProvider.class);
    assertThat(builder.getAclProvider().getAclForPath("/kairos"))
        .isEqualTo(ZooDefs.Ids.OPEN_ACL_UNSAFE);
  }

  @Test
  void withCredentialsEverySessionAuthenticatesByDigest() {
    CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder();
    ZookeeperAcl.apply(builder, auth("kairos", "pä:ss"));
    assertThat(builder.getAuthInfos())
        .singleElement()
        .satisfies(
            info -> {
              assertThat(info.getScheme()).isEqualTo("digest");
              assertThat(info.getAuth()).isEqualTo("kairos:pä:ss".getBytes(UTF_8));
            });
  }

  @Test
  void withCredentialsEveryZnodeIsTheCreatorsOnly() {
    CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder();
    ZookeeperAcl.apply(builder, auth("kairos", "secret"));
    ACLProvider acl = builder.getAclProvider();
    assertThat(acl).isInstanceOf(ZookeeperAcl.class);
    assertThat(acl.getDefaultAcl()).isEqualTo(ZooDefs.Ids.CREATOR_ALL_ACL);
    // The root and the containers creatingParentContainersIfNeeded makes, the znodes themselves,
    // and the ancestors of a deeper root.
    for (String path :
        new String[] {
          "/kairos", "/kairos/members", "/kairos/members/n1", "/kairos/terms/0000000000000000001",
          "/kairos/leader", "/kairos/draining/n1", "/apps", "/apps/kairos"
        }) {
      assertThat(acl.getAclForPath(path)).as(path).isEqualTo(ZooDefs.Ids.CREATOR_ALL_ACL);
    }
    assertThat(acl.toString()).doesNotContain("secret");
  }

  private static ZookeeperProperties.Auth auth(String username, String password) {
    ZookeeperProperties.Auth auth = new ZookeeperProperties.Auth();
    auth.setUsername(username);
    auth.setPassword(password);
    return auth;
  }
}
