import { createServer } from "node:net";

/** Asks the kernel for a free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** True when nothing listens on host:port yet (checked by binding it for a moment). */
export function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/**
 * Chooses a port per service: its default (DEFAULT_PORTS) when that is free, otherwise, or for a
 * service without a default, or when `anyFree` is set (parallel test stacks), one the kernel picks.
 */
export async function assignPorts(
  services: readonly string[],
  host: string,
  defaults: Record<string, number>,
  anyFree: boolean,
): Promise<Map<string, number>> {
  const ports = new Map<string, number>();
  for (const service of services) {
    const wanted = defaults[service];
    const taken = new Set(ports.values());
    if (!anyFree && wanted !== undefined && !taken.has(wanted) && (await portIsFree(host, wanted)))
      ports.set(service, wanted);
    else {
      let port = await freePort();
      while (taken.has(port)) port = await freePort();
      ports.set(service, port);
    }
  }
  return ports;
}
