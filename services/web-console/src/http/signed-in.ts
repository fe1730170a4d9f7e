import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { refreshTokens } from "../session/oauth-client.ts";
import { endSessions, loadSession, refreshSession } from "../session/sessions.ts";
import { redirectEndingSession, SESSION_COOKIE } from "./cookies.ts";
import type { ConsoleContext, ConsoleEnv } from "./env.ts";
import { timingMetric } from "./server-timing.ts";

/** A token with less than this left is refreshed before the page's calls (a page makes several). */
const REFRESH_AHEAD_MS = 60_000;
/** The API's answers that mean the session is over (signed out elsewhere, account deleted or disabled). */
const ENDED = new Set(["SESSION_REVOKED", "INVALID_TOKEN", "TOKEN_EXPIRED", "UNAUTHENTICATED"]);

/** Where to go to sign in, coming back to this page afterwards. */
export const signInRedirect = (c: ConsoleContext) => {
  const url = new URL(c.req.url);
  const back = c.req.method === "GET" ? `${url.pathname}${url.search}` : "/app";
  return `/app/signin?return_to=${encodeURIComponent(back)}`;
};

/**
 * The session behind the cookie, its token refreshed when about to expire, and the API bound to
 * it. No session (or one identity-svc no longer honours) → the sign-in, then back here. A call
 * the API refuses as unauthenticated ends the console's session too, so a revoked grant or a
 * deleted account is refused at once, not at the cookie's expiry.
 */
export const signedIn = (): MiddlewareHandler<ConsoleEnv> => async (c, next) => {
  const deps = c.get("deps");
  let session = await loadSession(deps, getCookie(c, SESSION_COOKIE));
  if (session && session.accessExpiresAt.getTime() - deps.clock().getTime() <= REFRESH_AHEAD_MS)
    session = await refreshSession(deps, session.idHash, (t) => refreshTokens(deps, t), REFRESH_AHEAD_MS);
  if (!session) {
    return redirectEndingSession(signInRedirect(c));
  }
  const current = session;
  c.set("session", current);
  c.set("csrf", deps.sealer.mac("csrf", current.idHash));
  let ended = false;
  c.set("api", async (call) => {
    const before = performance.now();
    const answer = await deps.api({ ...call, token: current.accessToken, requestId: c.get("requestId") });
    c.get("timings")?.push(timingMetric("api", performance.now() - before, `${call.method} ${call.path}`));
    if (!answer.ok && answer.problem.status === 401 && ENDED.has(answer.problem.code)) {
      ended = true;
      await endSessions(deps, { idHash: current.idHash });
    }
    return answer as never;
  });
  await next();
  if (ended) {
    c.res = redirectEndingSession(signInRedirect(c));
  }
};
