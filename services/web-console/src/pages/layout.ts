import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { ApiProblem } from "../api/api-client.ts";

/** A rendered fragment: every interpolated value is escaped by `html` (hono/html) unless it is itself a fragment. */
/** The hidden field every form carries (checked by http/csrf.ts). */
export const CSRF_FIELD = "_csrf";

export type Fragment = HtmlEscapedString | Promise<HtmlEscapedString>;

export interface LayoutInput {
  title: string;
  /** The signed-in view: nav, the tenant it acts in, and the sign-out form. Absent: an anonymous page. */
  signedIn?: { csrf: string; tenant?: { id: string; name: string } | undefined } | undefined;
  /** The flash banner after a redirect (`?done=`), or a problem the page is showing. */
  flash?: string | undefined;
  body: Fragment | string;
}

/**
 * The one layout: a skip link, the header with the tenant the page acts in, the main landmark,
 * the stylesheet (no inline style or script: the CSP allows neither). Every page of the console
 * renders through it, so its landmarks and headings are the same everywhere (axe checks them).
 */
export function layout({ title, signedIn, flash, body }: LayoutInput): Fragment {
  const tenant = signedIn?.tenant;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Flowstate</title>
<link rel="stylesheet" href="/app/static/console.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="/app">Flowstate</a>
  ${
    signedIn
      ? html`<nav aria-label="Main">
    <ul>
      <li><a href="/app/tenants">Tenants</a></li>
      ${
        tenant
          ? html`<li><a href="/app/t/${tenant.id}/offers">Offers</a></li>
      <li><a href="/app/t/${tenant.id}/products">Products</a></li>
      <li><a href="/app/t/${tenant.id}/agreements">Agreements</a></li>
      <li><a href="/app/t/${tenant.id}/marketplace">Onboarding</a></li>
      <li><a href="/app/t/${tenant.id}/settings/features">Settings</a></li>`
          : ""
      }
      <li><a href="/app/account">Account</a></li>
    </ul>
  </nav>
  <form method="post" action="/app/signout" class="signout">
    <input type="hidden" name="${CSRF_FIELD}" value="${signedIn.csrf}">
    <button type="submit" class="link">Sign out</button>
  </form>`
      : ""
  }
</header>
${tenant ? html`<p class="context">Acting in <strong>${tenant.name}</strong> · <a href="/app/tenants">Switch tenant</a></p>` : ""}
<main id="main" tabindex="-1">
${flash ? html`<div class="flash" role="status">${flash}</div>` : ""}
<h1>${title}</h1>
${body}
</main>
</body>
</html>`;
}

/** A problem from the API as a person reads it: what happened, what to do, and the request id to quote. */
export function problemBox(problem: ApiProblem | undefined): Fragment | string {
  if (!problem) return "";
  const fields = Object.entries(problem.fields);
  return html`<div class="problem" role="alert" aria-labelledby="problem-title">
  <h2 id="problem-title">${problem.title}</h2>
  ${problem.detail ? html`<p>${problem.detail}</p>` : ""}
  ${fields.length ? html`<ul>${fields.map(([path, message]) => html`<li>${path ? html`<strong>${path}</strong>: ` : ""}${message}</li>`)}</ul>` : ""}
  <p class="meta">Code ${problem.code}${problem.requestId ? html` · request id <code>${problem.requestId}</code>` : ""}</p>
</div>`;
}

/** The CSRF field of a form. */
export const csrfField = (csrf: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;
