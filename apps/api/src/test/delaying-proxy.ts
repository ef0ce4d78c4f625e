import net, { type Server, type Socket } from "node:net";

export interface DelayingProxy {
  /** The 127.0.0.1 port to connect to instead of the target. */
  port: number;
  close(): Promise<void>;
}

/**
 * A TCP proxy that holds every chunk `delayMs` before passing it on, each way: a
 * database `delayMs` away (one round trip costs 2 × delayMs more). Order is kept
 * per direction, since every chunk of a direction waits the same time.
 */
export async function startDelayingProxy(
  targetHost: string,
  targetPort: number,
  delayMs: number,
): Promise<DelayingProxy> {
  const sockets = new Set<Socket>();
  const relay = (from: Socket, to: Socket) =>
    from.on("data", (bytes: Buffer) => {
      setTimeout(() => {
        if (!to.destroyed) to.write(bytes);
      }, delayMs);
    });
  const server: Server = net.createServer((client) => {
    const upstream = net.connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on("close", () => {
        sockets.delete(socket);
        // The other side ends after what is still on its way has gone through.
        setTimeout(() => (socket === client ? upstream : client).destroy(), delayMs);
      });
      socket.on("error", () => socket.destroy());
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
