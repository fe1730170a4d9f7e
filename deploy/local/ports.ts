import { mkdirSync, statSync, utimesSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where chosen ports come from: below Linux's ephemeral range (32768–60999), which the kernel also
 * hands out as the local port of every outgoing connection. A port the kernel picked from that
 * range could be taken by an outgoing connection (or another test's stack) between this check and
 * the service binding it; on a loaded machine running many stacks that happened (a service died
 * with EADDRINUSE while another process answered its health check). Here only another chooser can
 * take it, and the space is randomised.
 */
const CHOSEN_PORTS = { from: 20_000, to: 32_000 } as const;

/**
 * A port chosen here stays reserved this long for every other chooser on the machine: a stack
 * chooses its two dozen ports at once and its services bind them only once booted, seconds later
 * on a loaded machine, and in between a bind check finds them free. Two stacks of one test run
 * then chose the same port and one service died with EADDRINUSE (CI, 2026-11-27: mcp-gateway).
 */
const RESERVED_MS = 10 * 60_000;
const RESERVATIONS = join(tmpdir(), "flowstate-chosen-ports");

/** Reserves `port` for RESERVED_MS across processes (mkdir is atomic); false when another chooser holds it. */
function reserve(port: number): boolean {
  const marker = join(RESERVATIONS, String(port));
  mkdirSync(RESERVATIONS, { recursive: true });
  try {
    mkdirSync(marker);
    return true;
  } catch {
    try {
      if (Date.now() - statSync(marker).mtimeMs < RESERVED_MS) return false;
      utimesSync(marker, new Date(), new Date()); // an old reservation: taken over
      return true;
    } catch {
      return false;
    }
  }
}

/** A free loopback port (bound for a moment to check), at random from CHOSEN_PORTS, reserved for this caller. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = CHOSEN_PORTS.from + Math.floor(Math.random() * (CHOSEN_PORTS.to - CHOSEN_PORTS.from));
    if ((await portIsFree("127.0.0.1", port)) && reserve(port)) return port;
  }
  throw new Error(`no free port between ${CHOSEN_PORTS.from} and ${CHOSEN_PORTS.to} after 50 tries`);
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
