import { Hono } from "hono";
import type { z } from "zod";
import type { SandboxDeps } from "../context.ts";
import { acceptOffer } from "./accept-offer.ts";
import { controlAccess } from "./access.ts";
import { accountView } from "./account-view.ts";
import {
  AcceptOfferInput,
  AccountId,
  AgreementStatusInput,
  ClockInput,
  FaultsInput,
  FlushInput,
  PayoutCurrenciesInput,
  TimingInput,
} from "./schemas.ts";

type Ctx = { req: { param(name: string): string | undefined; json(): Promise<unknown> } };

async function body<S extends z.ZodType>(c: Ctx, schema: S): Promise<z.output<S> | Response> {
  let json: unknown = {};
  try {
    json = await c.req.json();
  } catch {
    return Response.json({ message: "body must be JSON" }, { status: 400 });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return Response.json({ message: "invalid body", issues: parsed.error.issues }, { status: 400 });
  return parsed.data;
}

/**
 * The control plane for tests and the local stack, under `/_sandbox/` (no SDK operation has such a
 * path): inspect and reset a seller account, switch faults on and off, move its clock, change
 * its payout currencies and change-set pace, have a buyer accept an offer or AWS change an
 * agreement's status, and flush the cached IAM policies. Loopback callers
 * only, or a caller with the control token (access.ts).
 */
export function controlRoutes(deps: SandboxDeps): Hono {
  const app = new Hono({ strict: false });
  app.use("*", controlAccess(deps.controlToken));
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.post("/iam/flush", async (c) => {
    const input = await body(c, FlushInput);
    if (input instanceof Response) return input;
    deps.roles.flush(input.roleArn);
    return c.body(null, 204);
  });

  const account = new Hono<{ Variables: { account: string } }>({ strict: false });
  account.use("*", async (c, next) => {
    const id = AccountId.safeParse(c.req.param("account"));
    if (!id.success) return c.json({ message: "account must be a 12-digit AWS account id" }, 400);
    c.set("account", id.data);
    await next();
  });
  account.get("/", (c) => c.json(accountView(deps.sellers.get(c.get("account")))));
  account.post("/reset", (c) => c.json(accountView(deps.sellers.reset(c.get("account")))));
  account.put("/faults", async (c) => {
    const input = await body(c, FaultsInput);
    if (input instanceof Response) return input;
    const seller = deps.sellers.get(c.get("account"));
    seller.faults = input.faults.map((f) => ({
      kind: f.kind,
      operations: f.operations,
      remaining: f.count,
      latencyMs: f.latencyMs,
    }));
    return c.json({ faults: seller.faults });
  });
  account.delete("/faults", (c) => {
    deps.sellers.get(c.get("account")).faults = [];
    return c.body(null, 204);
  });
  account.put("/clock", async (c) => {
    const input = await body(c, ClockInput);
    if (input instanceof Response) return input;
    const seller = deps.sellers.get(c.get("account"));
    seller.clockOffsetMs =
      "offsetSeconds" in input ? input.offsetSeconds * 1000 : seller.clockOffsetMs + input.advanceSeconds * 1000;
    return c.json(accountView(seller));
  });
  account.put("/payout-currencies", async (c) => {
    const input = await body(c, PayoutCurrenciesInput);
    if (input instanceof Response) return input;
    const seller = deps.sellers.get(c.get("account"));
    seller.payoutCurrencies = [...new Set(input.currencies)];
    seller.sellerLastModified = Date.now() + seller.clockOffsetMs;
    return c.json(accountView(seller));
  });
  account.put("/timing", async (c) => {
    const input = await body(c, TimingInput);
    if (input instanceof Response) return input;
    const seller = deps.sellers.get(c.get("account"));
    seller.changeSetStepMs = input.changeSetStepMs;
    return c.json(accountView(seller));
  });
  account.post("/agreements", async (c) => {
    const input = await body(c, AcceptOfferInput);
    if (input instanceof Response) return input;
    const made = acceptOffer(deps.sellers.get(c.get("account")), input);
    if (typeof made === "string") return c.json({ message: made }, 409);
    return c.json({ id: made.id, offerId: made.offerId, status: made.status }, 201);
  });
  account.put("/agreements/:agreement", async (c) => {
    const input = await body(c, AgreementStatusInput);
    if (input instanceof Response) return input;
    const agreement = deps.sellers.get(c.get("account")).agreements.find((a) => a.id === c.req.param("agreement"));
    if (!agreement) return c.json({ message: "no such agreement" }, 404);
    agreement.status = input.status;
    return c.json({ id: agreement.id, offerId: agreement.offerId, status: agreement.status });
  });
  app.route("/accounts/:account", account);
  return app;
}
