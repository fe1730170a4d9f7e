import type { ChildProcess } from "node:child_process";
import { createServer, request, type Server } from "node:http";

/**
 * An HTTP hop between audit-svc and moto that can kill the service at the worst moment: when it
 * is armed and S3 has answered 200 to the PutObject of an archive object, the hop SIGKILLs the
 * service and drops the connection, so the object is stored and confirmed by S3 but the process
 * never learns it and never writes its database mark. Everything else passes through untouched
 * (headers included: the SDK's signature covers the Host header).
 */
export async function startKillingProxy(target: string): Promise<{
  endpoint: string;
  /** Kills `child` at the next archive object S3 confirms. */
  arm(child: ChildProcess, keyPart: string): Promise<string>;
  close(): Promise<void>;
}> {
  let armed: { child: ChildProcess; keyPart: string; killed: (key: string) => void } | undefined;
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const a = armed;
        if (a && req.method === "PUT" && req.url?.includes(a.keyPart) && answer.statusCode === 200) {
          armed = undefined;
          a.child.kill("SIGKILL");
          answer.resume();
          req.socket.destroy();
          a.killed(decodeURIComponent(req.url.split("?")[0]!));
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("proxy has no port");
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    arm: (child, keyPart) =>
      new Promise((resolve) => {
        armed = { child, keyPart, killed: resolve };
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
