import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A plain node:http server standing in for "a service behind the gateway" in proxy tests: it
 * records what reached it and answers by path. It is not identity-svc (the e2e suites run the
 * real one); it exists to observe the wire between gateway and service.
 *
 * - `/v1/echo…`: 200 JSON `{ok: true}`
 * - `/v1/big`: 200 with a 1 MiB body
 * - `/v1/revoke`: 200 with a `flowstate-invalidate` header (the value in `invalidate`)
 * - `/v1/cookies`: two Set-Cookie headers
 * - `/v1/cached`: its own Cache-Control, HSTS and X-Content-Type-Options
 */
export async function startEchoUpstream(options: { invalidate?: string } = {}) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      const path = req.url!.split("?")[0]!;
      if (path === "/v1/big") {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.end(Buffer.alloc(1024 * 1024, 7));
      } else if (path === "/v1/revoke") {
        res.writeHead(200, { "content-type": "application/json", "flowstate-invalidate": options.invalidate ?? "[]" });
        res.end('{"revoked":true}');
      } else if (path === "/v1/cached") {
        res.writeHead(200, {
          "content-type": "application/json",
          "cache-control": "public, max-age=60",
          "strict-transport-security": "max-age=1",
          "x-content-type-options": "sniff-away",
        });
        res.end('{"cached":true}');
      } else if (path === "/v1/cookies") {
        res.setHeader("set-cookie", ["a=1; HttpOnly", "b=2; HttpOnly"]);
        res.writeHead(200, { "content-type": "text/plain", connection: "keep-alive" });
        res.end("cookies");
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"ok":true}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    last: () => received.at(-1)!,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
