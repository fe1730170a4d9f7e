import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A chunked body decoded, or undefined until its last chunk has arrived. */
function dechunk(text: string): string | undefined {
  let body = "";
  let at = 0;
  for (;;) {
    const eol = text.indexOf("\r\n", at);
    if (eol < 0) return undefined;
    const size = Number.parseInt(text.slice(at, eol), 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return body;
    if (text.length < eol + 2 + size + 2) return undefined;
    body += text.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/**
 * Sends bytes as they are over a plain TCP socket (requests `fetch` refuses to build: a bad
 * Content-Length, oversized header lines, a `*` target, HTTP/1.0 without Host) and reads the
 * answer until the server closes, the declared body has arrived or the last chunk of a chunked one.
 *
 * @example
 * const answer = await rawRequest(url, "GET * HTTP/1.1\r\nhost: gw\r\n\r\n"); // { status: 400, headers, body }
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
      let body: string | undefined = text.slice(end + 4);
      if (headers["transfer-encoding"] === "chunked") body = dechunk(body);
      else if (headers["content-length"] !== undefined && body.length < Number(headers["content-length"]))
        return undefined;
      if (body === undefined) return undefined;
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
