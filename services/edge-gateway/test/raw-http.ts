import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes as they are over a plain TCP socket (requests `fetch` refuses to build: a bad
 * Content-Length, oversized header lines) and reads the answer until the server closes or the
 * declared body has arrived.
 */
export function rawRequest(url: string, request: string | Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const parse = (): RawAnswer | undefined => {
      const text = Buffer.concat(chunks).toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return undefined;
      const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(":");
        headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const body = text.slice(end + 4);
      if (headers["content-length"] !== undefined && body.length < Number(headers["content-length"])) return undefined;
      return { status: Number(statusLine!.split(" ")[1]), headers, body };
    };
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      const answer = parse();
      if (answer) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on("error", (err) => {
      const answer = parse();
      if (answer) resolve(answer);
      else reject(err);
    });
    socket.on("close", () => {
      const answer = parse();
      if (answer) resolve(answer);
      else reject(new Error("connection closed without an answer"));
    });
    socket.write(request);
  });
}
