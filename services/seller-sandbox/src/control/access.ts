import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { HttpBindings } from "@hono/node-server";
import type { MiddlewareHandler } from "hono";

/**
 * Whether `address` (a socket's remoteAddress) is this host's loopback: 127.0.0.0/8, ::1, or
 * 127.x written as an IPv4-mapped IPv6 address (a dual-stack listener reports it that way).
 */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith("127.");
  return address === "::1";
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * Who may use the control plane (`/_sandbox/*`: faults, clock, reset, IAM flush), which can make
 * every seller account misbehave. A caller on this host's loopback may: that is the test in this
 * process, `npm start`'s user, or `docker compose exec seller-sandbox …`. Any other peer (another
 * container on the compose network, anything that reaches a published port) must present
 * `Authorization: Bearer <SANDBOX_CONTROL_TOKEN>`; without a configured token nobody else may.
 * The peer is the TCP socket's address, never a forwarded header (nothing proxies the sandbox).
 * The AWS-facing operations are not affected: they authenticate by SigV4.
 *
 * @example
 * app.use("/_sandbox/*", controlAccess(settings.SANDBOX_CONTROL_TOKEN));
 */
export function controlAccess(token: string | undefined): MiddlewareHandler {
  const expected = token ? digest(token) : undefined;
  return async (c, next) => {
    const peer = (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket.remoteAddress;
    if (isLoopback(peer)) return next();
    if (!expected) {
      return c.json(
        { message: "the control plane answers loopback callers only; set SANDBOX_CONTROL_TOKEN to allow others" },
        403,
      );
    }
    const presented = /^Bearer (\S+)$/.exec(c.req.header("authorization") ?? "")?.[1];
    // Compared as digests: equal lengths for timingSafeEqual, and no early exit on the first byte.
    if (!presented || !timingSafeEqual(digest(presented), expected)) {
      c.header("www-authenticate", 'Bearer realm="seller-sandbox control plane"');
      return c.json({ message: "the control plane needs Authorization: Bearer <SANDBOX_CONTROL_TOKEN>" }, 401);
    }
    return next();
  };
}
