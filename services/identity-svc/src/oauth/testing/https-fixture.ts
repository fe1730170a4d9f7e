import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Whether the openssl CLI is there to make the fixture's certificate (Debian ships it). */
export function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A fresh self-signed P-256 certificate for 127.0.0.1 and localhost, valid one day. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "cimd-cert-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface FixtureAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (a hanging server, for timeouts). */
  hang?: boolean;
}

/**
 * A loopback HTTPS server that plays the web servers hosting Client ID Metadata Documents:
 * `answers` maps a path to what it serves; `hits` counts requests per path (to see the cache).
 */
export async function startHttpsFixture(answers: (origin: string) => Record<string, FixtureAnswer>) {
  const tls = selfSignedCertificate();
  const hits = new Map<string, number>();
  let table: Record<string, FixtureAnswer> = {};
  const server: Server = createServer(tls, (req, res) => {
    const path = req.url ?? "/";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const a = table[path];
    if (a?.hang) return;
    res.writeHead(a?.status ?? (a ? 200 : 404), a?.headers ?? { "content-type": "application/json" });
    res.end(a?.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  table = answers(origin);
  return {
    origin,
    ca: tls.cert,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
