package dev.kairos.core.redis;

import dev.kairos.core.error.KairosException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A Lua script read once from {@code src/main/resources/lua/<name>.lua} and called by SHA. Redis
 * Cluster nodes load scripts independently, so a NOSCRIPT answer falls back to EVAL with the body,
 * which also caches it on that node.
 */
public final class LuaScript {

  private final String name;
  private final String body;
  private final String sha;

  private LuaScript(String name, String body) {
    this.name = name;
    this.body = body;
    this.sha = sha1(body);
  }

  /** Reads {@code lua/<name>.lua} from the classpath of {@code owner}'s module. */
  public static LuaScript load(Class<?> owner, String name) {
    String path = "/lua/" + name + ".lua";
    try (InputStream in = owner.getResourceAsStream(path)) {
      if (in == null) {
        throw new KairosException("Lua script not found on the classpath: " + path);
      }
      return new LuaScript(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new KairosException("cannot read Lua script " + path, e);
    }
  }

  public String name() {
    return name;
  }

  public String sha() {
    return sha;
  }

  public <T> T eval(
      RedisClusterCommands<String, String> redis,
      ScriptOutputType type,
      String[] keys,
      String... args) {
    try {
      return redis.evalsha(sha, type, keys, args);
    } catch (RedisNoScriptException e) {
      return redis.eval(body, type, keys, args);
    }
  }

  public <T> CompletionStage<T> evalAsync(
      RedisClusterAsyncCommands<String, String> redis,
      ScriptOutputType type,
      String[] keys,
      String... args) {
    CompletableFuture<T> bySha = redis.<T>evalsha(sha, type, keys, args).toCompletableFuture();
    return bySha
        .handle(
            (result, error) -> {
              if (error == null) {
                return CompletableFuture.completedFuture(result);
              }
              Throwable cause = error instanceof CompletionException ? error.getCause() : error;
              if (cause instanceof RedisNoScriptException) {
                return redis.<T>eval(body, type, keys, args).toCompletableFuture();
              }
              return CompletableFuture.<T>failedFuture(cause);
            })
        .thenCompose(f -> f);
  }

  private static String sha1(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is required by every JVM", e);
    }
  }
}
