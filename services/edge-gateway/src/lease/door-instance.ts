import { randomBytes } from "node:crypto";
import { hostname } from "node:os";

/**
 * Who this door instance is to identity-svc (ADR 0011): a fresh id per process and the URL of its
 * internal listener. A wildcard METRICS_HOST (0.0.0.0 in a container) is not an address anyone can
 * reach, so the host name stands in for it (it resolves to the task on a container network) unless
 * DOOR_PUSH_URL says otherwise.
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
) {
  const wildcard = config.METRICS_HOST === "0.0.0.0" || config.METRICS_HOST === "::";
  const host = wildcard
    ? hostname()
    : config.METRICS_HOST.includes(":")
      ? `[${config.METRICS_HOST}]`
      : config.METRICS_HOST;
  return {
    instanceId: `${door}-${randomBytes(8).toString("hex")}`,
    pushUrl: config.DOOR_PUSH_URL ?? `http://${host}:${config.METRICS_PORT}`,
    renewMs: config.DOOR_LEASE_RENEW_MS,
  };
}
