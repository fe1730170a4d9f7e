import { createServer, request as forward, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A pass-through HTTP proxy in front of the emulator for one service (privacy-svc), which can hold
 * its SES SendEmail calls (`POST /v2/email/outbound-emails`) instead of forwarding them: the fault
 * `kill privacy-svc mid-send` waits until a ready e-mail is in flight (its send claimed, SES not yet
 * answering), kills the service, and the held call dies with it, never reaching SES. That is the
 * window in which an at-most-once send loses its mail, struck on purpose rather than by luck.
 * Every other call, and every SendEmail while nothing is held, goes through unchanged.
 */
export interface MailGate {
  endpoint: string;
  /** From now on SendEmail calls are held; resolves once one is. */
  holdNext(timeoutMs: number): Promise<void>;
  /** Stops holding; the calls still held are dropped (their client is gone), never forwarded. */
  drop(): number;
  close(): Promise<void>;
}

const isSend = (req: IncomingMessage) => req.method === "POST" && req.url?.startsWith("/v2/email/outbound-emails");

export async function startMailGate(target: string): Promise<MailGate> {
  const upstream = new URL(target);
  let holding = false;
  const held: ServerResponse[] = [];
  let onHeld: (() => void) | undefined;
  const server = createServer((req, res) => {
    if (holding && isSend(req)) {
      // Read the body (so the client sees its request sent) and answer nothing.
      req.resume();
      held.push(res);
      onHeld?.();
      return;
    }
    const out = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", () => res.destroy());
    req.on("aborted", () => out.destroy());
    res.on("close", () => {
      if (!res.writableFinished) out.destroy();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    holdNext(timeoutMs) {
      holding = true;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          onHeld = undefined;
          holding = false; // nothing struck: later sends must not be held for good
          reject(new Error(`no SendEmail call within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        onHeld = () => {
          clearTimeout(timer);
          onHeld = undefined;
          resolve();
        };
      });
    },
    drop() {
      holding = false;
      const n = held.length;
      for (const res of held.splice(0)) res.destroy();
      return n;
    },
    async close() {
      for (const res of held.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
