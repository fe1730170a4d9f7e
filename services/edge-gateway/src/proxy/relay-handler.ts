import { INVALIDATE_HEADER } from "@flowstate/contracts/internal/identity";
import { IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import type { ResponseSink } from "@flowstate/shared/http/access-log";
import { HOP_BY_HOP_HEADERS } from "@flowstate/shared/http/hop-by-hop";
import { NO_STORE, SECURITY_HEADER_LIST, SECURITY_HEADERS } from "../http/security-headers.ts";

/** Answers up to this size are collected and written with the head in one syscall; larger ones stream. */
const BUFFER_LIMIT = 256 * 1024;
/** Never relayed: hop-by-hop (RFC 9110 section 7.6.1), the gateway's own headers, and those it sets itself. */
const NOT_RELAYED = new Set([
  ...HOP_BY_HOP_HEADERS,
  INVALIDATE_HEADER,
  IDENTITY_HEADER,
  "x-request-id",
  ...Object.keys(SECURITY_HEADERS),
]);

export interface RelayOptions {
  res: ResponseSink;
  requestId: string;
  head: boolean;
  /**
   * The caller was authenticated: the answer is `Cache-Control: no-store` whatever the service
   * said. A public route's own Cache-Control is relayed; without one it is no-store too.
   */
  authenticated: boolean;
  /** Synchronously, with the `flowstate-invalidate` values, before anything is written. */
  onInvalidate: (value: string) => void;
  resolve: (status: number) => void;
  /** Only while nothing has been written: the caller can still answer with a problem. */
  reject: (err: Error) => void;
}

/**
 * An undici dispatch handler (the classic onConnect/onHeaders/onData/onComplete/onError shape,
 * which undici's own client speaks without an adapter) that relays a service's answer onto the
 * client's Node response. It replaces `pool.request()`, whose per-answer AsyncResource, Readable
 * stream, header object and body promise cost more CPU than the rest of the hop's JavaScript:
 * the head is turned into Node's flat header list in one pass (the gateway's HSTS, nosniff and
 * Cache-Control added, see security-headers.ts), small bodies are collected and
 * written together with the head, large ones stream with backpressure.
 */
export class RelayHandler {
  readonly #o: RelayOptions;
  #abort: ((err: Error) => void) | undefined;
  #status = 0;
  #headers: string[] = [];
  #chunks: Buffer[] | undefined;
  #streaming = false;

  constructor(options: RelayOptions) {
    this.#o = options;
  }

  onConnect(abort: (err: Error) => void): void {
    this.#abort = abort;
  }

  onHeaders(status: number, raw: Buffer[], resume: () => void): boolean {
    if (status < 200) return true; // 100 Continue and friends stay between gateway and service
    const o = this.#o;
    this.#status = status;
    const headers = this.#headers;
    let length = Number.NaN;
    let cacheControl = false;
    let hopByHop: Set<string> | undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toString("latin1").toLowerCase();
      if (name === "connection")
        hopByHop = new Set(
          raw[i + 1]!.toString("latin1")
            .toLowerCase()
            .split(/\s*,\s*/),
        );
    }
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toString("latin1").toLowerCase();
      const value = raw[i + 1]!.toString("latin1");
      if (name === INVALIDATE_HEADER) o.onInvalidate(value);
      if (NOT_RELAYED.has(name) || hopByHop?.has(name)) continue;
      if (name === "content-length") length = Number(value);
      else if (name === "cache-control") {
        if (o.authenticated) continue;
        cacheControl = true;
      }
      headers.push(name, value);
    }
    headers.push("x-request-id", o.requestId, ...SECURITY_HEADER_LIST);
    if (!cacheControl) headers.push("cache-control", NO_STORE);
    if (o.head || status === 204 || status === 304 || length <= BUFFER_LIMIT) {
      this.#chunks = [];
      return true;
    }
    // Large or of unknown length: the head goes out now and the body follows as it arrives.
    this.#streaming = true;
    o.res.writeHead(status, headers);
    o.res.once("close", () => {
      if (!o.res.writableFinished) this.#abort?.(new Error("client went away"));
    });
    o.res.on("drain", resume);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (!this.#streaming) {
      this.#chunks!.push(chunk);
      return true;
    }
    return this.#o.res.write(chunk); // false pauses the service's socket until "drain" resumes it
  }

  onComplete(): void {
    const { res } = this.#o;
    if (this.#streaming) res.end();
    else {
      const chunks = this.#chunks!;
      res.writeHead(this.#status, this.#headers);
      if (this.#o.head) res.end();
      else res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    }
    this.#o.resolve(this.#status);
  }

  onError(err: Error): void {
    if (this.#streaming) {
      // The head is out: cutting the connection is the only way to say the body is incomplete.
      this.#o.res.destroy();
      this.#o.resolve(this.#status);
    } else this.#o.reject(err);
  }
}
