/**
 * The console's cookies. Every one is `__Host-` (Path=/, no Domain, Secure: only this origin, over
 * https), HttpOnly (no script reads it). Secure on local http works because browsers treat
 * http://localhost and http://127.0.0.1 as secure contexts and keep Secure cookies there (the
 * consent page's device cookie relies on the same); a plain-http deployment on any other host is
 * not supported, by design (ADR 0015).
 */
export const SESSION_COOKIE = "__Host-flowstate-console";
/** The OAuth state of a sign-in in progress, bound to this browser (no login CSRF). */
export const LOGIN_COOKIE = "__Host-flowstate-console-login";
/** The anonymous CSRF secret of the forms shown before sign-in (sign-up). */
export const ANONYMOUS_COOKIE = "__Host-flowstate-console-csrf";

/**
 * A Set-Cookie value. The session cookie is SameSite=Lax: it must ride the top-level redirect back
 * from identity-svc's sign-in and links from e-mails, while cross-site posts never carry it.
 *
 * @example
 * setCookie(SESSION_COOKIE, id, { maxAgeSeconds: 43200, sameSite: "Lax" })
 */
export function setCookie(
  name: string,
  value: string,
  options: { maxAgeSeconds: number; sameSite: "Lax" | "Strict" },
): string {
  return `${name}=${value}; Path=/; Max-Age=${options.maxAgeSeconds}; Secure; HttpOnly; SameSite=${options.sameSite}`;
}

export const clearCookie = (name: string) => `${name}=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Lax`;

/** A 303 to `location` that also ends the browser's session cookie (sign-out, deletion, a refused session). */
export function redirectEndingSession(location: string): Response {
  return new Response(null, {
    status: 303,
    headers: [
      ["location", location],
      ["set-cookie", clearCookie(SESSION_COOKIE)],
    ],
  });
}
