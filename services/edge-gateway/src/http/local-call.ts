import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import type { ResponseSink } from "@flowstate/shared/http/access-log";
import type { InboundRequest } from "../routing/proxy-route.ts";

/** A registry route called in process: what a client would send, minus the socket. */
export interface LocalRequest {
  method: string;
  /** Path and query as a client would send them (normalised as an HTTP client would: WHATWG URL). */
  target: string;
  /** Header names in lower case. The body's Content-Length is added here. */
  headers: Record<string, string>;
  body?: Buffer | undefined;
  /**
   * The caller's address as the door it came through established it (its own socket peer, or
   * behind a trusted proxy the client it names): the per-client rate limit and X-Forwarded-For.
   */
  address: string;
  /** Aborting is the caller going away: the relay is cut as when an HTTP client disconnects. */
  signal?: AbortSignal | undefined;
}

export interface LocalAnswer {
  status: number;
  /** Lower-case names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

/** The request side of an in-process call: its headers and body, the caller's address as the socket's peer. */
export class LocalIncoming extends Readable implements InboundRequest {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawHeaders: string[];
  readonly complete = true;
  readonly socket: { remoteAddress: string };

  constructor(request: LocalRequest) {
    super();
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers["content-length"] = String(request.body.length);
    this.method = request.method;
    this.headers = headers;
    this.rawHeaders = Object.entries(headers).flat();
    this.socket = { remoteAddress: request.address };
    if (request.body !== undefined) this.push(request.body);
    this.push(null);
  }

  override _read(): void {}
}

/**
 * The response side of an in-process call: collects what the route writes (a relayed answer or a
 * problem) and settles `answer` when it ends; a response cut midway (the service's answer broke
 * off after its head was relayed) rejects, as a cut connection makes an HTTP client's read fail.
 * Writes are never refused, so a streamed answer is collected whole.
 */
export class LocalResponse implements ResponseSink {
  headersSent = false;
  writableFinished = false;
  readonly answer: Promise<LocalAnswer>;
  #status = 0;
  #headers: Record<string, string> = {};
  #chunks: Buffer[] = [];
  #onClose: (() => void)[] = [];
  #settled = false;
  #unlisten: (() => void) | undefined;
  #resolve!: (answer: LocalAnswer) => void;
  #reject!: (err: Error) => void;

  constructor(signal?: AbortSignal) {
    this.answer = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    if (signal) {
      // Removed once settled: a timeout signal lives until its timer fires and would keep this answer alive.
      const onAbort = () => this.destroy();
      signal.addEventListener("abort", onAbort, { once: true });
      this.#unlisten = () => signal.removeEventListener("abort", onAbort);
    }
  }

  setHeader(name: string, value: string): this {
    this.#headers[name.toLowerCase()] = value;
    return this;
  }

  /** Set headers (setHeader) are replaced by the head's own of the same name, as Node merges them. */
  writeHead(status: number, headers: OutgoingHttpHeaders | string[]): this {
    this.#status = status;
    const set = this.#headers;
    this.#headers = {};
    const add = (name: string, value: string) => {
      const key = name.toLowerCase();
      this.#headers[key] = key in this.#headers ? `${this.#headers[key]}, ${value}` : value;
    };
    if (Array.isArray(headers)) for (let i = 0; i < headers.length; i += 2) add(headers[i]!, headers[i + 1]!);
    else
      for (const [name, value] of Object.entries(headers))
        if (value !== undefined) for (const v of Array.isArray(value) ? value : [value]) add(name, String(v));
    for (const [name, value] of Object.entries(set)) if (!(name in this.#headers)) this.#headers[name] = value;
    this.headersSent = true;
    return this;
  }

  write(chunk: Buffer): boolean {
    this.#chunks.push(chunk);
    return true;
  }

  end(chunk?: Buffer | string): this {
    if (this.#settled) return this;
    this.#settled = true;
    this.#unlisten?.();
    if (chunk !== undefined) this.#chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    this.writableFinished = true;
    const chunks = this.#chunks;
    this.#resolve({
      status: this.#status,
      headers: this.#headers,
      body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
    });
    return this;
  }

  once(_event: "close", listener: () => void): this {
    this.#onClose.push(listener);
    return this;
  }

  /** Never needed: `write` never asks the relay to wait. */
  on(_event: "drain", _listener: () => void): this {
    return this;
  }

  /** As on a Node response: not finished, and the relay's "close" listener cuts the service's answer. */
  destroy(): this {
    if (this.#settled) return this;
    this.#settled = true;
    this.#unlisten?.();
    this.#reject(new Error("the in-process answer was cut off"));
    for (const listener of this.#onClose.splice(0)) listener();
    return this;
  }
}
