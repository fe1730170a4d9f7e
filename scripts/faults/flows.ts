import { randomUUID } from "node:crypto";
import { offerRequest } from "@flowstate/offers-svc/testing/offer-fixtures";
import { opportunityDetail, partnerEvent } from "@flowstate/partner-inbound/testdata/partner-events";
import type { FaultCall } from "./client.ts";

/** What a flow leaves for the checks that run once the system has settled. */
export interface FlowTrace {
  /** An export that reached ready: its owner's address must receive exactly one ready e-mail. */
  readyExport?: { email: string; jobId: string };
}

/** A flow that cannot reach its end within the client's deadline throws: that is a lost flow. */
export type Flow = (call: FaultCall, world: World) => Promise<FlowTrace>;

/** What flows share: a tenant connected to a seller account of the sandbox, set up before any fault. */
export interface World {
  seller: { tenantId: string; token: string; productId: string; control: string };
  /**
   * The seller account's Partner Central side: `send` puts one event on partner-inbound's us-east-1
   * queue, as the tenant's forwarding rule and the shard bus deliver it.
   */
  partner: { account: string; send(body: string): Promise<void> };
}

const PASSWORD = "correct horse battery staple";
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

class Lost extends Error {}
const must = (ok: boolean, what: string, answer?: { status: number; text: string }) => {
  if (!ok) throw new Lost(`${what}${answer ? `: ${answer.status} ${answer.text.slice(0, 200)}` : ""}`);
};

/** Sign-up then sign-in; a sign-up retried after a lost answer may find its own account (409), which is fine. */
async function person(call: FaultCall, flow: string, label: string) {
  const email = `${label}-${randomUUID()}@faults.example.com`;
  const up = await call(flow, "signup", "POST", "/v1/auth/signup", {
    body: { email, password: PASSWORD, name: label },
  });
  // A sign-up retried after a lost answer meets its own account: sign-in below decides.
  must(up.status < 500, "sign-up", up);
  const signin = await call(flow, "signin", "POST", "/v1/auth/signin", { body: { email, password: PASSWORD } });
  must(signin.status === 200, "sign-in", signin);
  return { email, token: signin.json.access_token as string };
}

/** Until `done` holds of the answer (a poll), or the deadline: then the flow is lost. */
async function until(
  call: FaultCall,
  flow: string,
  step: string,
  path: string,
  token: string,
  done: (json: Record<string, unknown>) => boolean,
  ms = 120_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await call(flow, step, "GET", path, { token });
    if (res.status === 200 && done(res.json)) return res;
    must(Date.now() < deadline, `${step} never ended`, res);
    await pause(300);
  }
}

/** sign-up → tenant → invitation → accepted → the member is listed once. */
const invitation: Flow = async (call) => {
  const owner = await person(call, "invitation", "owner");
  const member = await person(call, "invitation", "member");
  const tenant = await call("invitation", "create tenant", "POST", "/v1/tenants", {
    token: owner.token,
    body: { name: "Fault tenant" },
  });
  must(tenant.status === 201, "create tenant", tenant);
  const tenantId = tenant.json.id as string;
  const invite = await call("invitation", "invite", "POST", `/v1/tenants/${tenantId}/members`, {
    token: owner.token,
    body: { email: member.email, role: "member" },
  });
  must(invite.status === 201, "invite", invite);
  const accept = await call(
    "invitation",
    "accept",
    "POST",
    `/v1/users/me/invitations/${invite.json.invitation_id}/accept`,
    { token: member.token },
  );
  // A retried accept whose first answer was lost finds the invitation already used.
  must(accept.status === 200 || accept.status === 404 || accept.status === 409, "accept", accept);
  const members = await call("invitation", "members", "GET", `/v1/tenants/${tenantId}/members`, {
    token: owner.token,
  });
  must(members.status === 200, "members", members);
  const listed = JSON.stringify(members.json).split(member.email).length - 1;
  must(listed === 1, `the member listed ${listed} times`);
  return {};
};

/** export requested → ready → downloaded. */
const exportFlow: Flow = async (call) => {
  const user = await person(call, "export", "exporter");
  const req = await call("export", "request", "POST", "/v1/users/me/export", { token: user.token });
  must(req.status === 202 || req.json?.code === "EXPORT_RATE_LIMITED", "request", req);
  const jobId = req.json.job_id as string;
  must(typeof jobId === "string", "a job id", req);
  const ready = await until(call, "export", "poll", `/v1/users/me/export/${jobId}`, user.token, (j) => {
    if (j.status === "failed") throw new Lost(`export failed: ${String(j.failure_reason)}`);
    return j.status === "ready";
  });
  const file = await fetch(ready.json.download_url as string);
  must(file.status === 200, "download", { status: file.status, text: await file.text().catch(() => "") });
  return { readyExport: { email: user.email, jobId } };
};

/** offer created and released in one change set → succeeded → released, and exactly one such offer exists. */
const offer: Flow = async (call, world) => {
  const { tenantId, token, productId } = world.seller;
  const M = `/v1/tenants/${tenantId}/integrations/marketplace`;
  const name = `Fault ${randomUUID()}`;
  const created = await call("offer", "create", "POST", `${M}/offers`, {
    token,
    idempotent: true,
    body: { ...offerRequest(productId, { name }), release: true },
  });
  must(created.status === 202, "create", created);
  const change = await until(call, "offer", "change", `${M}/changes/${created.json.change_set_id}`, token, (j) =>
    ["succeeded", "failed", "cancelled"].includes(String(j.status)),
  );
  must(change.json.status === "succeeded", `change set ${String(change.json.status)}`, change);
  const got = await call("offer", "read", "GET", `${M}/offers/${change.json.offer_id}`, { token });
  must(got.status === 200 && got.json.state === "released", "released", got);
  let copies = 0;
  for (let cursor: string | undefined, page = 0; page < 100; page++) {
    const list = await call(
      "offer",
      "list",
      "GET",
      `${M}/offers?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      {
        token,
      },
    );
    must(list.status === 200, "list", list);
    copies += (list.json.offers as { name?: string }[]).filter((o) => o.name === name).length;
    cursor = list.json.next_cursor;
    if (!cursor) break;
  }
  if (copies !== 1) throw new Duplicated(`${copies} offers named ${name}`);
  return {};
};

/** account deleted → its token refused at once, its sign-in refused. */
const deletion: Flow = async (call) => {
  const user = await person(call, "deletion", "leaver");
  const gone = await call("deletion", "delete", "DELETE", "/v1/users/me", { token: user.token });
  // A retried delete whose first answer was lost meets a disabled account.
  must(gone.status === 200 || gone.status === 401 || gone.status === 403, "delete", gone);
  const me = await call("deletion", "me", "GET", "/v1/users/me", { token: user.token });
  must(me.status === 401 || me.status === 403, "the deleted account's token refused", me);
  return {};
};

/**
 * A Partner Central event (delivered twice, as EventBridge may) on the us-east-1 queue → partner-inbound
 * → eu-central-1 → partner-svc → the opportunity in the tenant's sync state, listed exactly once.
 */
const partner: Flow = async (call, world) => {
  const { tenantId, token } = world.seller;
  const id = `O${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const event = partnerEvent("Opportunity Created", opportunityDetail(id), {
    account: world.partner.account,
    time: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
  });
  // AWS's side of the delivery, not a client of ours: retried until the queue takes it.
  for (const _ of [1, 2]) {
    for (let attempt = 0; ; attempt++) {
      try {
        await world.partner.send(JSON.stringify(event));
        break;
      } catch (err) {
        must(attempt < 20, `the partner queue refused the event: ${(err as Error).message}`);
        await pause(1_000);
      }
    }
  }
  const deadline = Date.now() + 120_000;
  for (;;) {
    const list = await call("partner", "list", "GET", `/v1/tenants/${tenantId}/partner/opportunities?limit=100`, {
      token,
    });
    must(list.status === 200, "list", list);
    const copies = (list.json.items as { opportunity_id: string }[]).filter((o) => o.opportunity_id === id).length;
    if (copies > 1) throw new Duplicated(`opportunity ${id} listed ${copies} times`);
    if (copies === 1) return {};
    must(Date.now() < deadline, `opportunity ${id} never appeared`);
    await pause(500);
  }
};

/** A second effect where one was asked for (reported apart from lost flows). */
export class Duplicated extends Error {}
export { Lost };

export const flows = { invitation, export: exportFlow, offer, deletion, partner } satisfies Record<string, Flow>;
export type FlowName = keyof typeof flows;
