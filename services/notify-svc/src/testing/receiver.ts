import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** Whether it verified with the receiver's secret (Standard Webhooks' reference verifier). */
  verified: boolean;
  /** What the receiver answered. */
  status: number;
  /** When it arrived (Date.now()). */
  at: number;
}

export interface Receiver {
  url: string;
  /** Every request, in arrival order. */
  received: Received[];
  /** The requests it accepted (answered 2xx). */
  accepted(): Received[];
  /** While true, it answers 503 (the receiver is down). */
  down: boolean;
  /** The secrets it verifies with (set after registration; a rotation adds one). */
  secrets: string[];
  close(): Promise<void>;
}

const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });

/**
 * A webhook receiver as a customer would write one, on 127.0.0.1: it verifies every request with
 * the `standardwebhooks` package (any of its secrets), answers 503 while `down`, 401 when the
 * signature does not verify, else 204. For notify-svc's tests and bench.
 */
export async function startReceiver(): Promise<Receiver> {
  const r: Receiver = {
    url: "",
    received: [],
    accepted: () => r.received.filter((x) => x.status < 300),
    down: false,
    secrets: [],
    close: async () => {},
  };
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const headers = {
      "webhook-id": String(req.headers["webhook-id"] ?? ""),
      "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
      "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
    };
    const verified = r.secrets.some((s) => {
      try {
        new Webhook(s).verify(body, headers);
        return true;
      } catch {
        return false;
      }
    });
    const status = r.down ? 503 : verified ? 204 : 401;
    r.received.push({
      id: headers["webhook-id"],
      timestamp: headers["webhook-timestamp"],
      signature: headers["webhook-signature"],
      body,
      verified,
      status,
      at: Date.now(),
    });
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/flowstate`;
  r.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return r;
}
