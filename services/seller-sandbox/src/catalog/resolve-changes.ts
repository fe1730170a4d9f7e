import { ApiError } from "../http/api-error.ts";
import { parseInput } from "../http/validate.ts";
import { ID_LENGTH, randomId } from "../seed/ids.ts";
import type { ChangeRecord, SellerState } from "../seller/types.ts";
import { isOfferChangeType, OFFER_CHANGE_DETAILS } from "./change-details.ts";
import type { ChangeInput } from "./change-set-input.ts";

const REFERENCE = /^\$([A-Za-z]\w*)\.Entity\.Identifier$/;
const invalid = (message: string): never => {
  throw new ApiError(422, "ValidationException", message);
};

/** Details or DetailsDocument, exactly one ("either, not both"), as an object. */
function detailsOf(change: ChangeInput, n: number): { details: unknown; sentAsString: boolean } {
  const hasString = change.Details !== undefined;
  const hasDocument = change.DetailsDocument !== undefined;
  if (hasString && hasDocument) invalid(`Change ${n}: specify either Details or DetailsDocument, not both.`);
  if (!hasString && !hasDocument) invalid(`Change ${n}: Details or DetailsDocument is required.`);
  if (!hasString) return { details: change.DetailsDocument, sentAsString: false };
  try {
    return { details: JSON.parse(change.Details as string), sentAsString: true };
  } catch {
    return invalid(`Change ${n}: Details must be a JSON object in a string.`);
  }
}

/**
 * The synchronous half of StartChangeSet: every change is checked against its type's schema,
 * `$<ChangeName>.Entity.Identifier` references are resolved to earlier changes of the same set,
 * existing entities must exist (404 otherwise), and CreateOffer and CreateReplacementOffer (whose
 * agreement must exist) get their offer id now so the change set can be authorized on real ARNs
 * and locked.
 */
export function resolveChanges(seller: SellerState, changes: ChangeInput[]): ChangeRecord[] {
  const records: ChangeRecord[] = [];
  const byName = new Map<string, ChangeRecord>();
  const seen = new Set<string>();
  for (const [i, change] of changes.entries()) {
    const n = i + 1;
    if (change.Entity.Type !== "Offer@1.0") {
      invalid(
        `Change ${n}: entity type ${change.Entity.Type} is not supported; the sandbox changes Offer@1.0 entities.`,
      );
    }
    if (!isOfferChangeType(change.ChangeType))
      invalid(`Change ${n}: unsupported ChangeType ${change.ChangeType} for entity type Offer@1.0.`);
    const type = change.ChangeType as keyof typeof OFFER_CHANGE_DETAILS;
    const { details, sentAsString } = detailsOf(change, n);
    const Details = parseInput(OFFER_CHANGE_DETAILS[type], details, {
      status: 422,
      path: ["changeSet", i, sentAsString ? "details" : "detailsDocument"],
    });

    let entityId: string;
    const identifier = change.Entity.Identifier;
    if (type === "CreateOffer") {
      if (identifier !== undefined) invalid(`Change ${n}: CreateOffer must not carry an Entity.Identifier.`);
      const productId = (Details as { ProductId: string }).ProductId;
      if (!seller.products.has(productId))
        throw new ApiError(404, "ResourceNotFoundException", `Product ${productId} not found.`);
      entityId = randomId("offer", ID_LENGTH.offer);
    } else if (type === "CreateReplacementOffer") {
      if (identifier !== undefined) invalid(`Change ${n}: CreateReplacementOffer must not carry an Entity.Identifier.`);
      const agreementId = (Details as { AgreementId: string }).AgreementId;
      if (!seller.agreements.some((a) => a.id === agreementId))
        throw new ApiError(404, "ResourceNotFoundException", `Agreement ${agreementId} not found.`);
      entityId = randomId("offer", ID_LENGTH.offer);
    } else if (identifier === undefined) {
      entityId = invalid(`Change ${n}: Entity.Identifier is required for ${type}.`);
    } else {
      const ref = REFERENCE.exec(identifier);
      if (ref) {
        const target = byName.get(ref[1] as string);
        if (!target) invalid(`Change ${n}: ${identifier} does not name an earlier change of this change set.`);
        entityId = (target as ChangeRecord).EntityId;
      } else {
        entityId = identifier.replace(/@\d+$/, "");
        if (!seller.offers.has(entityId))
          throw new ApiError(404, "ResourceNotFoundException", `Entity ${entityId} not found.`);
      }
    }
    const key = `${type}/${entityId}`;
    if (seen.has(key)) invalid(`Change ${n}: ${type} appears more than once for entity ${entityId}.`);
    seen.add(key);
    const record: ChangeRecord = {
      ChangeType: type,
      ChangeName: change.ChangeName,
      EntityType: change.Entity.Type,
      EntityId: entityId,
      Details: Details as Record<string, unknown>,
      sentAsString,
    };
    if (change.ChangeName) {
      if (byName.has(change.ChangeName)) invalid(`Change ${n}: ChangeName ${change.ChangeName} is used twice.`);
      byName.set(change.ChangeName, record);
    }
    records.push(record);
  }
  return records;
}
