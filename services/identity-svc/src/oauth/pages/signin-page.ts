import type { AuthorizationRequest } from "../db/entities.ts";
import { errorNotice, esc, page } from "./layout.ts";

/** Which application is asking, and where it will send the user back (the host is what matters). */
export function clientSummary(request: AuthorizationRequest): string {
  const redirect = new URL(request.redirect_uri);
  const origin = redirect.protocol === "http:" || redirect.protocol === "https:" ? redirect.host : redirect.protocol;
  const identity = request.client_host
    ? `published at <strong>${esc(request.client_host)}</strong>`
    : "registered with Flowstate by the application itself (its name is not verified)";
  return `<p><strong>${esc(request.client_name)}</strong>, ${identity}, wants to use your Flowstate account.
After you decide, you go back to <code>${esc(origin)}</code>.</p>`;
}

/**
 * Step 1: sign in. Labels tie to their inputs, autocomplete lets password managers help, an error
 * is announced and linked to the fields. The interaction id and CSRF token travel as hidden fields.
 */
export function signInPage(o: {
  request: AuthorizationRequest;
  interaction: string;
  csrf: string;
  email?: string;
  error?: string;
}): string {
  const described = o.error ? ' aria-describedby="signin-error" aria-invalid="true"' : "";
  return page(
    "Sign in to continue",
    `${clientSummary(o.request)}
${errorNotice("signin-error", o.error)}
<form method="post" action="/oauth/authorize/signin">
<input type="hidden" name="interaction" value="${esc(o.interaction)}">
<input type="hidden" name="csrf" value="${esc(o.csrf)}">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${esc(o.email ?? "")}"${described}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described}>
<div class="actions"><button class="primary" type="submit">Sign in</button></div>
</form>
<p class="note">You are signing in to Flowstate, not to ${esc(o.request.client_name)}: it never sees your password.</p>`,
  );
}
