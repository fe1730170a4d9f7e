import type { OfferChange } from "@flowstate/contracts/rest/offers/changes";
import { html } from "hono/html";
import type { ApiAnswer } from "../api/api-client.ts";
import { notFoundProblem } from "../api/api-client.ts";
import type { ConsoleApp, ConsoleContext } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { layout } from "../pages/layout.ts";
import { renderFeatureProblem } from "./marketplace-onboarding.ts";
import { connectorPath, pagePath } from "./marketplace-paths.ts";
import { tenantOf, tenantView } from "./tenant-context.ts";

const ACTION: Record<string, string> = { create: "Create", clone: "Clone", release: "Release", expire: "Expire" };
const CHANGE_SET_ID = /^[A-Za-z0-9]{1,64}$/;

/** How long a progress page waits for the change set to end before answering "still applying". */
const WAIT_MS = 10_000;
const ended = (ch: OfferChange) => ch.status !== "preparing" && ch.status !== "applying";

/** The change set, re-read every half second until it ends or WAIT_MS passed (a long poll: no refresh, no script). */
async function settled(c: ConsoleContext, tenantId: string, id: string): Promise<ApiAnswer<OfferChange>> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const answer = await c.get("api")<OfferChange>({ method: "GET", path: connectorPath(tenantId, `/changes/${id}`) });
    if (!answer.ok || ended(answer.body) || Date.now() > until) return answer;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * A change set's progress (GET …/changes/{id}): the page waits up to ten seconds for AWS to finish
 * (most change sets do), then says how it ended, with AWS's error codes and Flowstate's explanation
 * when it failed, or that it is still applying with a "Check again" link. No automatic refresh: a
 * page that reloads itself on a timer takes the reader's place away (WCAG 2.2.1; axe's meta-refresh).
 */
export function mountChange(app: ConsoleApp): void {
  app.get("/app/t/:tenant/changes/:change", signedIn(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const { tenant } = found;
    const id = c.req.param("change");
    const answer = CHANGE_SET_ID.test(id) ? await settled(c, tenant.id, id) : null;
    if (answer === null || !answer.ok)
      return renderFeatureProblem(c, tenant, answer?.ok === false ? answer.problem : notFoundProblem());
    const ch = answer.body;
    const running = !ended(ch);
    const offerLink = ch.offer_id
      ? html`<a href="${pagePath(tenant.id, `/offers/${ch.offer_id}`)}">Open the offer</a>`
      : "";
    const page = layout({
      title: `${ACTION[ch.action] ?? ch.action} offer: ${running ? "in progress" : ch.status}`,
      signedIn: tenantView(c, tenant),
      body: html`<p role="status">AWS change set <code>${ch.change_set_id}</code>: <strong>${ch.status}</strong>.</p>
${running ? html`<p>AWS is still applying it. <a href="${pagePath(tenant.id, `/changes/${ch.change_set_id}`)}">Check again</a></p>` : ""}
${
  ch.status === "succeeded"
    ? html`<p>Done. ${offerLink}</p>`
    : ch.status === "failed"
      ? html`<div class="problem" role="alert" aria-labelledby="change-failed"><h2 id="change-failed">AWS refused the change</h2>
<ul>${ch.changes.flatMap((x) => x.errors.map((e) => html`<li><code>${e.code}</code>: ${e.message}</li>`))}</ul>
${ch.failure_code === "SERVER_FAULT" ? html`<p>The fault was on AWS's side: submit the change again.</p>` : ""}
${offerLink}</div>`
      : ""
}
<p><a href="${pagePath(tenant.id, "/offers")}">All offers</a></p>`,
    });
    return c.html(page);
  });
}
