import type { Logger } from "@flowstate/shared/log/logger";

/** A problem+json answer of the API as the console shows it (field errors by path, the request id). */
export interface ApiProblem {
  status: number;
  code: string;
  title: string;
  detail: string;
  requestId: string | undefined;
  /** `errors[].path` joined with dots → message, for the fields a form names. */
  fields: Record<string, string>;
  /** The whole problem, for members a page uses (`tenant_ids`, `step`, `hint`, …). */
  body: Record<string, unknown>;
}

export type ApiAnswer<T> = { ok: true; status: number; body: T } | { ok: false; problem: ApiProblem };

export interface ApiCall {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  token?: string | undefined;
  /** JSON body; `form` sends application/x-www-form-urlencoded instead (the OAuth endpoints). */
  body?: unknown;
  form?: Record<string, string>;
  requestId?: string | undefined;
}

export type ApiClient = <T = Record<string, unknown>>(call: ApiCall) => Promise<ApiAnswer<T>>;

/**
 * The console's one way to the public API: the edge gateway over HTTP, with the user's token, as
 * any client (ADR 0015: the console owns no product data and has no other door). The browser's
 * request id travels on, so a problem shown on a page names the id the gateway and services logged.
 * An unreachable gateway is a problem too (503), never an exception a page has to catch.
 *
 * @example
 * const api = apiClient({ baseUrl: "http://127.0.0.1:8080", timeoutMs: 10_000, logger });
 * const me = await api<Profile>({ method: "GET", path: "/v1/users/me", token });
 */
export function apiClient(options: { baseUrl: string; timeoutMs: number; logger: Logger }): ApiClient {
  const base = options.baseUrl.replace(/\/$/, "");
  return async <T>(call: ApiCall): Promise<ApiAnswer<T>> => {
    const headers: Record<string, string> = { accept: "application/json" };
    if (call.token) headers.authorization = `Bearer ${call.token}`;
    if (call.requestId) headers["x-request-id"] = call.requestId;
    let body: string | undefined;
    if (call.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(call.form).toString();
    } else if (call.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(call.body);
    }
    let res: Response;
    try {
      res = await fetch(`${base}${call.path}`, {
        method: call.method,
        headers,
        ...(body !== undefined && { body }),
        redirect: "manual",
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (err) {
      options.logger.warn({ err, path: call.path }, "the API did not answer the console");
      return { ok: false, problem: unreachable(call.requestId) };
    }
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // An answer that is not JSON (a proxy's page): shown as the status alone.
    }
    if (res.ok) return { ok: true, status: res.status, body: json as T };
    return { ok: false, problem: toProblem(res.status, json, res.headers.get("x-request-id") ?? call.requestId) };
  };
}

function toProblem(status: number, json: Record<string, unknown>, requestId: string | undefined): ApiProblem {
  const fields: Record<string, string> = {};
  if (Array.isArray(json.errors))
    for (const e of json.errors as { path?: unknown; message?: unknown }[]) {
      const path = Array.isArray(e.path) ? e.path.join(".") : typeof e.path === "string" ? e.path : "";
      if (typeof e.message === "string") fields[path] ??= e.message;
    }
  // OAuth endpoints answer RFC 6749 objects with the problem members beside them.
  const code = str(json.code) ?? str(json.error) ?? `HTTP_${status}`;
  return {
    status,
    code,
    title: str(json.title) ?? "The request was refused",
    detail: str(json.detail) ?? str(json.error_description) ?? "",
    requestId: str(json.request_id) ?? requestId,
    fields,
    body: json,
  };
}

const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

const unreachable = (requestId: string | undefined): ApiProblem => ({
  status: 503,
  code: "UPSTREAM_UNAVAILABLE",
  title: "Flowstate is not answering",
  detail: "The API did not answer in time. Try again in a moment.",
  requestId,
  fields: {},
  body: {},
});

/** The answer for an id the console refuses before asking (malformed): the API's own 404, so both pages are one. */
export const notFoundProblem = (): ApiProblem => ({
  status: 404,
  code: "NOT_FOUND",
  title: "Not found",
  detail: "",
  requestId: undefined,
  fields: {},
  body: {},
});
