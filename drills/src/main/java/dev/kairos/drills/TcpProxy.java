package dev.kairos.drills;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A TCP forwarder on loopback between one process and one server, so a drill can cut that one path
 * and leave every other: {@link #partition()} stops moving bytes in both directions and leaves new
 * connections unanswered, as a network that drops packets would — connections stay open and each
 * side sees only silence, and times out on its own clock; {@link #heal()} lets everything flow
 * again, delivering what was held, as TCP retransmission would after a short partition.
 *
 * <p>Thread-safe; one named event-loop thread per proxy. {@link #close} closes every connection.
 */
public final class TcpProxy implements AutoCloseable {

  /** Ties the two sides of a relayed connection. */
  private static final AttributeKey<Channel> PEER = AttributeKey.valueOf("kairos-tcp-proxy-peer");

  private final String name;
  private final InetSocketAddress target;
  private final EventLoopGroup loop;
  private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
  private final Channel server;
  private final List<Channel> held = new ArrayList<>();
  private volatile boolean partitioned;

  private TcpProxy(String name, InetSocketAddress target) {
    this.name = name;
    this.target = target;
    this.loop = new NioEventLoopGroup(1, new DefaultThreadFactory("tcp-proxy-" + name, true));
    this.server =
        new ServerBootstrap()
            .group(loop)
            .channel(NioServerSocketChannel.class)
            .childOption(ChannelOption.AUTO_READ, false)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel inbound) {
                    channels.add(inbound);
                    inbound.pipeline().addLast(new Inbound());
                  }
                })
            .bind(new InetSocketAddress("127.0.0.1", 0))
            .syncUninterruptibly()
            .channel();
  }

  /** Starts forwarding {@code 127.0.0.1:<port()>} to {@code host:port}. */
  public static TcpProxy start(String name, String host, int port) {
    return new TcpProxy(name, new InetSocketAddress(host, port));
  }

  /** The loopback port clients connect to instead of the target's. */
  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  public boolean isPartitioned() {
    return partitioned;
  }

  /** Cuts the path: nothing moves either way and new connections get no answer until healed. */
  public void partition() {
    loop.submit(
            () -> {
              partitioned = true;
              channels.forEach(c -> c.config().setAutoRead(false));
            })
        .syncUninterruptibly();
  }

  /** Restores the path: held bytes and held new connections go through. */
  public void heal() {
    loop.submit(
            () -> {
              partitioned = false;
              List<Channel> waiting = new ArrayList<>(held);
              held.clear();
              waiting.forEach(this::connect);
              channels.forEach(
                  c -> {
                    if (c.attr(PEER).get() != null) {
                      c.config().setAutoRead(true);
                    }
                  });
            })
        .syncUninterruptibly();
  }

  @Override
  public void close() {
    server.close().syncUninterruptibly();
    channels.close().syncUninterruptibly();
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @Override
  public String toString() {
    return "TcpProxy[" + name + " :" + port() + " -> " + target + "]";
  }

  /** On the event loop: opens the target side of {@code inbound} and starts moving bytes. */
  private void connect(Channel inbound) {
    if (!inbound.isActive()) {
      return;
    }
    new Bootstrap()
        .group(loop)
        .channel(NioSocketChannel.class)
        .option(ChannelOption.AUTO_READ, false)
        .option(ChannelOption.TCP_NODELAY, true)
        .handler(new Relay(inbound))
        .connect(target)
        .addListener(
            (ChannelFutureListener)
                connected -> {
                  if (!connected.isSuccess()) {
                    inbound.close();
                    return;
                  }
                  Channel outbound = connected.channel();
                  channels.add(outbound);
                  inbound.attr(PEER).set(outbound);
                  outbound.attr(PEER).set(inbound);
                  if (!partitioned) {
                    inbound.config().setAutoRead(true);
                    outbound.config().setAutoRead(true);
                  }
                });
  }

  /** The client's side: waits for its target side, then relays. */
  private final class Inbound extends ChannelInboundHandlerAdapter {
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      if (partitioned) {
        held.add(ctx.channel()); // accepted by the kernel, answered by nobody until healed
      } else {
        connect(ctx.channel());
      }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      relay(ctx.channel(), msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      held.remove(ctx.channel());
      closePeer(ctx.channel());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  /** The target's side of one connection. */
  private static final class Relay extends ChannelInboundHandlerAdapter {
    private final Channel inbound;

    Relay(Channel inbound) {
      this.inbound = inbound;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      relay(ctx.channel(), msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      inbound.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  private static void relay(Channel from, Object msg) {
    Channel to = from.attr(PEER).get();
    if (to == null || !to.isActive()) {
      ReferenceCountUtil.release(msg);
      return;
    }
    to.writeAndFlush(msg);
  }

  private static void closePeer(Channel channel) {
    Channel peer = channel.attr(PEER).get();
    if (peer != null && peer.isActive()) {
      peer.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }
  }
}
