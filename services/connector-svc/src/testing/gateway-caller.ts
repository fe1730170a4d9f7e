import { randomUUID } from "node:crypto";
import { recordSecret } from "@flowstate/shared/testing/secrets";

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field in the tests
  json: any;
}

export interface CallOptions {
  /** `Authorization: Bearer <token>`: an access token or an API key. */
  token?: string | undefined;
  body?: unknown;
  /** A raw body (malformed-input tests); sent as is. */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface Account {
  sub: string;
  email: string;
  password: string;
  token: string;
}

/**
 * HTTP to the gateway as a client would, with sign-up and sign-in through it. Every password and
 * token minted goes through recordSecret for the log scan.
 */
export function gatewayCaller(baseUrl: string) {
  const call = async (method: string, path: string, o: CallOptions = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;
    let body: string | Uint8Array | undefined = o.raw;
    if (body === undefined && o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: body as BodyInit } : {}),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
  const expect = async (method: string, path: string, status: number, o: CallOptions = {}): Promise<Answer> => {
    const answer = await call(method, path, o);
    if (answer.status !== status) {
      throw new Error(`${method} ${path}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 500)}`);
    }
    return answer;
  };
  const signUp = async (): Promise<Account> => {
    const email = `mkt-${randomUUID()}@example.test`;
    const password = recordSecret(`pw-${randomUUID()}`);
    const { sub } = (await expect("POST", "/v1/auth/signup", 201, { body: { email, password, name: "Seller Admin" } }))
      .json as { sub: string };
    const tokens = (await expect("POST", "/v1/auth/signin", 200, { body: { email, password } })).json as {
      access_token: string;
      refresh_token: string;
    };
    recordSecret(tokens.access_token);
    recordSecret(tokens.refresh_token);
    return { sub, email, password, token: tokens.access_token };
  };
  return { call, expect, signUp };
}
