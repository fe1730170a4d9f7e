import type { ServiceEnv } from "@flowstate/shared/http/types";
import type { Context, Hono } from "hono";
import type { ApiAnswer, ApiCall } from "../api/api-client.ts";
import type { ConsoleDeps } from "../deps.ts";
import type { Session } from "../session/sessions.ts";

/** What a console handler reads: the deps, and once signed in, the session and the API as its user. */
export type ConsoleEnv = {
  Variables: ServiceEnv["Variables"] & {
    deps: ConsoleDeps;
    session: Session;
    /** The page's Server-Timing metrics so far (http/server-timing.ts): each API call it made. */
    timings: string[];
    /** The CSRF token every form of this page carries (an HMAC of the session or of the anonymous cookie). */
    csrf: string;
    /** The public API with the session's token and the request id (a 401 ends the session: see signed-in.ts). */
    api: <T = Record<string, unknown>>(call: Omit<ApiCall, "token" | "requestId">) => Promise<ApiAnswer<T>>;
  };
};
export type ConsoleApp = Hono<ConsoleEnv>;
export type ConsoleContext = Context<ConsoleEnv>;
