import { html } from "hono/html";
import type { ApiProblem } from "../api/api-client.ts";
import type { ConsoleContext } from "../http/env.ts";
import { layout, problemBox } from "./layout.ts";

/** A page that only says what went wrong (and the request id): a refused form, a missing object. */
export function renderError(c: ConsoleContext, status: 400 | 403 | 404 | 500 | 503, title: string, detail: string) {
  return c.html(
    layout({
      title,
      body: html`<p>${detail}</p>
<p class="meta">Request id <code>${c.get("requestId")}</code></p>
<p><a href="/app">Back to Flowstate</a></p>`,
    }),
    status,
  );
}

/**
 * An API refusal as its own page: 404 for anything not found (a foreign tenant's object answers
 * exactly like a missing one, as the API does), the problem shown with its request id otherwise.
 */
export function renderProblem(c: ConsoleContext, problem: ApiProblem, signedIn?: { csrf: string }) {
  if (problem.status === 404)
    return c.html(
      layout({
        title: "Not found",
        signedIn,
        body: html`<p>There is nothing here, or it is not yours to see.</p>
<p class="meta">Request id <code>${problem.requestId ?? c.get("requestId")}</code></p>
<p><a href="/app/tenants">Your tenants</a></p>`,
      }),
      404,
    );
  const status = problem.status >= 500 ? 503 : problem.status === 403 ? 403 : 400;
  return c.html(layout({ title: "Something went wrong", signedIn, body: problemBox(problem) }), status);
}
