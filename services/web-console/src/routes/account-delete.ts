import { REAUTHENTICATION_MAX_AGE_SECONDS } from "@flowstate/contracts/rest/identity/users";
import { html } from "hono/html";
import type { ApiProblem } from "../api/api-client.ts";
import { redirectEndingSession } from "../http/cookies.ts";
import { requireCsrf } from "../http/csrf.ts";
import type { ConsoleApp, ConsoleContext } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { csrfField, layout, problemBox } from "../pages/layout.ts";
import { endSessions } from "../session/sessions.ts";

/** The literal text the user types (interface 4.1 rule 5): exactly this, no trimming, no case folding. */
export const CONFIRMATION = "DELETE";

interface FormState {
  /** Ask for the password: the sign-in is older than the API's 15 minutes, or the API said so. */
  reauthenticate: boolean;
  error?: string | undefined;
  problem?: ApiProblem | undefined;
  /** OWNS_ACTIVE_TENANTS: the tenants to transfer or delete first. */
  ownedTenants?: string[] | undefined;
}

const stale = (c: ConsoleContext) =>
  c.get("deps").clock().getTime() - c.get("session").signedInAt.getTime() > REAUTHENTICATION_MAX_AGE_SECONDS * 1000;

function page(c: ConsoleContext, state: FormState, status: 200 | 400 | 409 = 200) {
  const owned = state.ownedTenants ?? [];
  return c.html(
    layout({
      title: "Delete account",
      signedIn: { csrf: c.get("csrf") },
      body: html`${
        owned.length
          ? html`<div class="problem" role="alert" aria-labelledby="owner-title">
  <h2 id="owner-title">You still own ${owned.length === 1 ? "a tenant" : `${owned.length} tenants`}</h2>
  <p>Nothing was deleted. Transfer the ownership of each tenant to another member, or delete the tenant, then come back.</p>
  <ul>${owned.map((id) => html`<li><a href="/app/t/${id}/ownership">Transfer or delete tenant <code>${id}</code></a></li>`)}</ul>
</div>`
          : problemBox(state.problem)
      }
<div class="warning" role="note"><strong>Warning:</strong> this deletes your Flowstate account and erases your personal data. You are signed out everywhere, and it cannot be undone.</div>
<form method="post" action="/app/account/delete" class="stack">
  ${csrfField(c.get("csrf"))}
  <label for="confirm">Type DELETE to confirm</label>
  ${state.error ? html`<p class="field-error" id="confirm-error">${state.error}</p>` : ""}
  <input id="confirm" name="confirm" autocomplete="off" spellcheck="false"${state.error ? html` aria-invalid="true" aria-describedby="confirm-error"` : ""}>
  ${
    state.reauthenticate
      ? html`<label for="password">Your password</label>
  <p class="hint" id="password-hint">You signed in more than 15 minutes ago: enter your password again.</p>
  <input id="password" name="password" type="password" autocomplete="current-password" required aria-describedby="password-hint">`
      : ""
  }
  <button type="submit" class="danger">Delete account</button>
</form>
<p><a href="/app/account">Cancel</a></p>`,
    }),
    status,
  );
}

/**
 * Account → Delete account: DELETE /v1/users/me once the user typed `DELETE` exactly (anything
 * else deletes nothing and says so), with the password when the sign-in is older than 15 minutes.
 * After the deletion every console session of the account ends at once (identity-svc has
 * revoked the grants; the rows go too, so the cookie is refused without a round trip).
 */
export function mountAccountDelete(app: ConsoleApp): void {
  app.get("/app/account/delete", signedIn(), (c) => page(c, { reauthenticate: stale(c) }));
  app.post("/app/account/delete", signedIn(), requireCsrf(), async (c) => {
    const form = await c.req.parseBody();
    const confirm = typeof form.confirm === "string" ? form.confirm : "";
    const password = typeof form.password === "string" ? form.password : "";
    if (confirm !== CONFIRMATION)
      return page(
        c,
        { reauthenticate: stale(c), error: "Type DELETE in capital letters, exactly. Nothing was deleted." },
        400,
      );
    const answer = await c.get("api")({
      method: "DELETE",
      path: "/v1/users/me",
      ...(password ? { body: { password } } : {}),
    });
    if (!answer.ok) {
      const { problem } = answer;
      if (problem.code === "OWNS_ACTIVE_TENANTS") {
        const ids = Array.isArray(problem.body.tenant_ids) ? (problem.body.tenant_ids as string[]) : [];
        return page(c, { reauthenticate: stale(c), ownedTenants: ids }, 409);
      }
      if (problem.code === "REAUTHENTICATION_REQUIRED" || problem.code === "INVALID_CREDENTIALS")
        return page(c, { reauthenticate: true, problem }, 400);
      return page(c, { reauthenticate: stale(c), problem }, 400);
    }
    await endSessions(c.get("deps"), { sub: c.get("session").sub });
    return redirectEndingSession("/app/account-deleted");
  });
  app.get("/app/account-deleted", (c) =>
    c.html(
      layout({
        title: "Your account is deleted",
        body: html`<p>Your account and your personal data are deleted. Thank you for using Flowstate.</p>`,
      }),
    ),
  );
}
