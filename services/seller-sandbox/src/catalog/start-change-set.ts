import { createHash } from "node:crypto";
import { ApiError } from "../http/api-error.ts";
import { authorize, marketplaceArn } from "../http/authorize.ts";
import type { CallContext } from "../http/marketplace-call.ts";
import { parseInput, parseJsonBody } from "../http/validate.ts";
import { ID_LENGTH, randomId } from "../seed/ids.ts";
import { nowOf } from "../seller/clock.ts";
import type { ChangeSet, SellerState } from "../seller/types.ts";
import { requireCatalog } from "./catalog-name.ts";
import { StartChangeSetInput } from "./change-set-input.ts";
import { resolveChanges } from "./resolve-changes.ts";
import { scheduleChangeSet } from "./run-change-set.ts";

const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

const startingTokens = new WeakMap<SellerState, Map<string, Promise<unknown>>>();
/** The ClientRequestTokens of StartChangeSet calls still being processed for a seller. */
function starting(seller: SellerState): Map<string, Promise<unknown>> {
  let map = startingTokens.get(seller);
  if (!map) {
    map = new Map();
    startingTokens.set(seller, map);
  }
  return map;
}

const answer = (account: string, cs: ChangeSet) => ({
  ChangeSetId: cs.id,
  ChangeSetArn: marketplaceArn(account, "ChangeSet", cs.id),
});

/**
 * StartChangeSet: validates synchronously (422/404), is idempotent on ClientRequestToken (the SDK
 * fills one in), authorizes `aws-marketplace:StartChangeSet` on every changed entity's ARN with
 * `catalog:ChangeType` (and a replacement offer's dependent agreement reads), refuses entities locked by an open change set (423), then runs the change
 * set asynchronously.
 */
export async function startChangeSet(call: CallContext): Promise<ReturnType<typeof answer>> {
  const input = parseInput(StartChangeSetInput, parseJsonBody(call.body, 422), { status: 422 });
  requireCatalog(input.Catalog);
  const { seller } = call;
  const account = seller.account;
  const { ClientRequestToken, ...rest } = input;
  // Member order is not part of a request: a retry serialized by another client (or read back from
  // a store) is the same request.
  const fingerprint = createHash("sha256").update(canonicalJson(rest)).digest("base64url");
  const token = ClientRequestToken ?? randomId("", 32);
  // Authorization below awaits (the role's policies); a concurrent request with the same token
  // waits for this one and then finds its change set, as AWS's idempotency promises, rather than
  // starting a second one in that window.
  const inFlight = starting(seller);
  const running = inFlight.get(token);
  if (running) {
    await running.catch(() => undefined);
    return startChangeSet(call);
  }
  const earlier = [...seller.changeSets.values()].find((c) => c.clientRequestToken === token);
  if (earlier) {
    if (earlier.fingerprint !== fingerprint) {
      throw new ApiError(
        422,
        "ValidationException",
        `ClientRequestToken ${token} was already used for a different request.`,
      );
    }
    return answer(account, earlier);
  }

  const started = (async () => {
    const changes = resolveChanges(seller, input.ChangeSet);
    for (const change of changes) {
      await authorize(
        call.deps,
        call.caller,
        "aws-marketplace:StartChangeSet",
        marketplaceArn(account, "Offer", change.EntityId),
        {
          "catalog:ChangeType": [change.ChangeType],
          "aws-marketplace:Intent": [input.Intent ?? "APPLY"],
        },
      );
      // An agreement-based offer reads the agreement it replaces and its terms: the Service
      // Authorization Reference lists DescribeAgreement and GetAgreementTerms among StartChangeSet's
      // dependent actions, checked as those calls check them (resource `*`, PartyType/AgreementType).
      if (change.ChangeType === "CreateReplacementOffer") {
        for (const action of ["aws-marketplace:DescribeAgreement", "aws-marketplace:GetAgreementTerms"]) {
          await authorize(call.deps, call.caller, action, "*", {
            "aws-marketplace:PartyType": ["Proposer"],
            "aws-marketplace:AgreementType": ["PurchaseAgreement"],
          });
        }
      }
    }
    const locked = [
      ...new Set(changes.map((c) => seller.locks.get(c.EntityId)).filter((id): id is string => id !== undefined)),
    ];
    if (locked.length) {
      throw new ApiError(
        423,
        "ResourceInUseException",
        `Requested change set has entities locked by change sets - ${locked.join(", ")}`,
      );
    }

    const cs: ChangeSet = {
      id: randomId("", ID_LENGTH.changeSet),
      name: input.ChangeSetName ?? `Submitted by ${account}`,
      intent: input.Intent ?? "APPLY",
      status: "PREPARING",
      startTime: nowOf(seller),
      changes,
      clientRequestToken: token,
      fingerprint,
    };
    seller.changeSets.set(cs.id, cs);
    for (const c of changes) seller.locks.set(c.EntityId, cs.id);
    scheduleChangeSet(seller, cs);
    return answer(account, cs);
  })();
  inFlight.set(token, started);
  try {
    return await started;
  } finally {
    inFlight.delete(token);
  }
}
