import { randomBytes } from "node:crypto";
import { hostname, networkInterfaces } from "node:os";

/**
 * Who this door instance is to identity-svc (ADR 0011): a fresh id per process and the URL of its
 * internal listener. A wildcard METRICS_HOST (0.0.0.0 in a container or an ECS task) is not an
 * address anyone can reach, so this task's own private IPv4 address stands in for it (its first
 * non-loopback interface: the task's ENI on awsvpc, the container's on a compose network; the host
 * name if it has none) unless DOOR_PUSH_URL says otherwise. Each replica is reached by its own
 * address, never a service name's pick. `boundPort`: the port the internal listener actually got
 * (METRICS_PORT 0 asks the kernel for one; registering port 0 made every push fail, so each
 * revoking call waited out the lease and the door dropped all it had cached).
 *
 * @example
 * doorInstance("edge-gateway", config) // { instanceId: "edge-gateway-3f9a…", pushUrl: "http://127.0.0.1:9080", renewMs: 1000 }
 */
export function doorInstance(
  door: "edge-gateway" | "mcp-gateway",
  config: {
    METRICS_HOST: string;
    METRICS_PORT: number;
    DOOR_PUSH_URL?: string | undefined;
    DOOR_LEASE_RENEW_MS: number;
  },
  boundPort: number = config.METRICS_PORT,
) {
  const wildcard = config.METRICS_HOST === "0.0.0.0" || config.METRICS_HOST === "::";
  const host = wildcard
    ? ownAddress()
    : config.METRICS_HOST.includes(":")
      ? `[${config.METRICS_HOST}]`
      : config.METRICS_HOST;
  return {
    instanceId: `${door}-${randomBytes(8).toString("hex")}`,
    pushUrl: config.DOOR_PUSH_URL ?? `http://${host}:${boundPort}`,
    renewMs: config.DOOR_LEASE_RENEW_MS,
  };
}

function ownAddress(): string {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  return hostname();
}
