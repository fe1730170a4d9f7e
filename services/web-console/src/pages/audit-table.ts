import type { AuditEvent } from "@flowstate/contracts/rest/audit/audit-events";
import { html } from "hono/html";
import type { Fragment } from "./layout.ts";

function actorOf(a: AuditEvent["actor"]): string {
  switch (a.kind) {
    case "user":
      return `person ${a.sub}`;
    case "api_key":
      return `API key ${a.key_id} (for ${a.sub})`;
    case "system":
      return `Flowstate (${a.service})`;
    case "anonymous":
      return "nobody signed in";
  }
}

/** An audit listing (GET …/audit-events) as a table, the next page's link when there is one. */
export function auditTable(
  caption: string,
  events: readonly AuditEvent[],
  next: string | null,
  pageUrl: (cursor: string) => string,
): Fragment {
  if (!events.length) return html`<p>Nothing recorded yet.</p>`;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table>
<caption>${caption}</caption>
<thead><tr><th scope="col">When (UTC)</th><th scope="col">What</th><th scope="col">Who</th><th scope="col">About</th><th scope="col">Request id</th></tr></thead>
<tbody>${events.map(
    (e) =>
      html`<tr><td>${e.occurred_at.slice(0, 19).replace("T", " ")}</td><td>${e.type}</td><td>${actorOf(e.actor)}</td><td>${e.target_sub ?? ""}</td><td><code>${e.request_id ?? ""}</code></td></tr>`,
  )}</tbody></table></div>
${next ? html`<p><a href="${pageUrl(next)}">Older events</a></p>` : ""}`;
}
