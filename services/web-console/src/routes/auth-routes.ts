import { getCookie } from "hono/cookie";
import { html } from "hono/html";
import { clearCookie, LOGIN_COOKIE, redirectEndingSession, SESSION_COOKIE, setCookie } from "../http/cookies.ts";
import { requireCsrf } from "../http/csrf.ts";
import type { ConsoleApp } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { renderError } from "../pages/error-page.ts";
import { layout } from "../pages/layout.ts";
import { beginSignIn, finishSignIn, revokeGrant } from "../session/oauth-client.ts";
import { createSession, endSessions, loadSession } from "../session/sessions.ts";

/** Only a path of the console itself: `return_to` must never send the browser elsewhere (open redirect). */
export function localReturn(value: string | undefined): string {
  const local = value === "/app" || (value?.startsWith("/app/") ?? false);
  if (!local || /[\\\r\n]/.test(value!) || value!.length > 500) return "/app/tenants";
  return value!;
}

/**
 * Sign-in, its callback, sign-out and the landing page. Sign-in is identity-svc's own page (the
 * same one MCP clients show), reached by the authorization-code flow; the console never sees a
 * password except to pass a re-authentication on to the API (Delete account).
 */
export function mountAuthRoutes(app: ConsoleApp): void {
  app.get("/app", async (c) => {
    const session = await loadSession(c.get("deps"), getCookie(c, SESSION_COOKIE));
    if (session) return c.redirect("/app/tenants", 303);
    return c.html(
      layout({
        title: "The seller console",
        body: html`<p>Connect your AWS Marketplace seller account and manage private offers and agreements.</p>
<p class="actions"><a class="button" href="/app/signin">Sign in</a> <a href="/app/signup">Create an account</a></p>`,
      }),
    );
  });

  app.get("/app/signin", async (c) => {
    const deps = c.get("deps");
    const { state, url } = await beginSignIn(deps, localReturn(c.req.query("return_to")));
    const res = c.redirect(url, 303);
    res.headers.append("set-cookie", setCookie(LOGIN_COOKIE, state, { maxAgeSeconds: 600, sameSite: "Lax" }));
    return res;
  });

  app.get("/app/auth/callback", async (c) => {
    const deps = c.get("deps");
    if (c.req.query("error"))
      return renderError(
        c,
        400,
        "Sign-in did not finish",
        "The sign-in was cancelled or refused. Start again from the sign-in page.",
      );
    const done = await finishSignIn(deps, {
      state: c.req.query("state"),
      cookieState: getCookie(c, LOGIN_COOKIE),
      code: c.req.query("code"),
      requestId: c.get("requestId"),
    });
    if (!done)
      return renderError(
        c,
        400,
        "Sign-in did not finish",
        "This sign-in link expired or belongs to another browser. Sign in again.",
      );
    const claims = JSON.parse(Buffer.from(done.tokens.access_token.split(".")[1]!, "base64url").toString()) as {
      sub: string;
      auth_time?: number;
    };
    const id = await createSession(deps, {
      sub: claims.sub,
      tokens: done.tokens,
      signedInAt: claims.auth_time ? new Date(claims.auth_time * 1000) : deps.clock(),
    });
    const res = c.redirect(done.returnTo, 303);
    res.headers.append(
      "set-cookie",
      setCookie(SESSION_COOKIE, id, { maxAgeSeconds: Math.floor(deps.sessionTtlMs / 1000), sameSite: "Lax" }),
    );
    res.headers.append("set-cookie", clearCookie(LOGIN_COOKIE));
    return res;
  });

  app.post("/app/signout", signedIn(), requireCsrf(), async (c) => {
    const deps = c.get("deps");
    const session = c.get("session");
    // The grant is revoked at identity-svc (every token of this sign-in stops at the next call), then the row goes.
    await revokeGrant(deps, session.refreshToken, c.get("requestId"));
    await endSessions(deps, { idHash: session.idHash });
    return redirectEndingSession("/app/signed-out");
  });

  app.get("/app/signed-out", (c) =>
    c.html(
      layout({
        title: "Signed out",
        body: html`<p>You are signed out.</p><p><a href="/app/signin">Sign in again</a></p>`,
      }),
    ),
  );
}
