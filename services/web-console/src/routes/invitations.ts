import { InvitationId } from "@flowstate/contracts/ids";
import type { ReceivedInvitationList } from "@flowstate/contracts/rest/identity/invitations";
import { html } from "hono/html";
import { requireCsrf } from "../http/csrf.ts";
import type { ConsoleApp } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { renderProblem } from "../pages/error-page.ts";
import { csrfField, layout } from "../pages/layout.ts";
import { flashOf } from "./tenant-context.ts";

/** Invitations and ownership transfers addressed to me: accept or decline each. */
export function mountInvitations(app: ConsoleApp): void {
  app.get("/app/invitations", signedIn(), async (c) => {
    const list = await c.get("api")<ReceivedInvitationList>({ method: "GET", path: "/v1/users/me/invitations" });
    if (!list.ok) return renderProblem(c, list.problem, { csrf: c.get("csrf") });
    const answer = (id: string, verb: "accept" | "decline", label: string) =>
      html`<form method="post" action="/app/invitations/${id}/${verb}" class="inline">${csrfField(c.get("csrf"))}<button type="submit"${verb === "decline" ? html` class="secondary"` : ""}>${label}</button></form>`;
    return c.html(
      layout({
        title: "Invitations",
        signedIn: { csrf: c.get("csrf") },
        flash: flashOf(c, { accept: "Invitation accepted.", decline: "Invitation declined." }),
        body: list.body.invitations.length
          ? html`<ul class="cards">${list.body.invitations.map(
              (
                i,
              ) => html`<li><p>${i.invited_by_name} ${i.kind === "ownership" ? html`asks you to take over <strong>${i.tenant_name}</strong> as its owner` : html`invites you to <strong>${i.tenant_name}</strong> as ${i.role}`} (until ${i.expires_at.slice(0, 10)}).</p>
${answer(i.invitation_id, "accept", `Accept the invitation to ${i.tenant_name}`)} ${answer(i.invitation_id, "decline", `Decline the invitation to ${i.tenant_name}`)}</li>`,
            )}</ul>`
          : html`<p>No invitation is waiting for you.</p>`,
      }),
    );
  });
  app.post("/app/invitations/:id/:verb{accept|decline}", signedIn(), requireCsrf(), async (c) => {
    const id = c.req.param("id");
    const verb = c.req.param("verb");
    if (!InvitationId.safeParse(id).success) return c.redirect("/app/invitations", 303);
    const answer = await c.get("api")({ method: "POST", path: `/v1/users/me/invitations/${id}/${verb}` });
    if (!answer.ok) return renderProblem(c, answer.problem, { csrf: c.get("csrf") });
    return c.redirect(`/app/invitations?done=${verb}`, 303);
  });
}
