import { esc, page } from "./layout.ts";

/**
 * An authorization request that cannot be sent back to the client (unknown client, redirect URI
 * not registered, expired sign-in): shown here, never redirected, so the authorization endpoint
 * cannot be used as an open redirector (RFC 6749 section 4.1.2.1).
 */
export class PageError extends Error {
  override name = "PageError";
  readonly status: 400 | 401 | 403 | 404;
  readonly title: string;
  readonly code: string;
  constructor(status: 400 | 401 | 403 | 404, title: string, detail: string, code: string) {
    super(detail);
    this.status = status;
    this.title = title;
    this.code = code;
  }
}

export function errorPage(err: PageError, requestId: string): string {
  return page(
    err.title,
    `<p role="alert">${esc(err.message)}</p>
<p class="note">Error <code>${esc(err.code)}</code>, request <code>${esc(requestId)}</code>. Return to your application and start again.</p>`,
  );
}
