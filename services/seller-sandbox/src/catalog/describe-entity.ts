import { ApiError } from "../http/api-error.ts";
import { authorize, marketplaceArn } from "../http/authorize.ts";
import type { CallContext } from "../http/marketplace-call.ts";
import { isoSeconds } from "../seller/clock.ts";
import type { SellerState } from "../seller/types.ts";
import { requireCatalog } from "./catalog-name.ts";
import { offerDetails, productDetails, sellerDetails } from "./entity-views.ts";

type Found = { kind: string; revision: number; lastModified: number; details: Record<string, unknown> };

function find(seller: SellerState, id: string): Found | undefined {
  const offer = seller.offers.get(id);
  if (offer)
    return { kind: "Offer", revision: offer.revision, lastModified: offer.lastModified, details: offerDetails(offer) };
  const product = seller.products.get(id);
  if (product)
    return { kind: "SaaSProduct", revision: 1, lastModified: product.lastModified, details: productDetails(product) };
  if (id === seller.sellerId) {
    return { kind: "Seller", revision: 1, lastModified: seller.sellerLastModified, details: sellerDetails(seller) };
  }
  return undefined;
}

/** The kind an unknown id would have, so an unauthorized caller gets 403 rather than learning it is absent. */
function kindOfId(id: string): string {
  if (id.startsWith("offer-")) return "Offer";
  if (id.startsWith("prod-")) return "SaaSProduct";
  if (id.startsWith("seller-")) return "Seller";
  return "Entity";
}

/**
 * DescribeEntity (`GET /DescribeEntity?catalog=..&entityId=..`): authorized on the entity's ARN,
 * answers `Details` as a JSON string and `DetailsDocument` as a document, as the real service
 * has been seen to do; `EntityIdentifier` is `<id>@<revision>`.
 */
export async function describeEntity(call: CallContext) {
  const catalog = call.query.get("catalog");
  const entityId = call.query.get("entityId");
  if (!catalog || !entityId) {
    const missing = [!catalog && "catalog", !entityId && "entityId"].filter(Boolean);
    throw new ApiError(
      422,
      "ValidationException",
      `${missing.length} validation error${missing.length === 1 ? "" : "s"} detected: ${missing.map((m) => `Value null at '${m}' failed to satisfy constraint: Member must not be null`).join("; ")}`,
    );
  }
  requireCatalog(catalog);
  if (!/^[\w-]{1,255}$/.test(entityId)) {
    throw new ApiError(
      422,
      "ValidationException",
      `1 validation error detected: Value '${entityId}' at 'entityId' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[\\w\\-]+$`,
    );
  }
  const account = call.seller.account;
  const found = find(call.seller, entityId);
  await authorize(
    call.deps,
    call.caller,
    "aws-marketplace:DescribeEntity",
    marketplaceArn(account, found?.kind ?? kindOfId(entityId), entityId),
  );
  if (!found) throw new ApiError(404, "ResourceNotFoundException", `Entity ${entityId} not found.`);
  return {
    EntityType: `${found.kind}@1.0`,
    EntityIdentifier: `${entityId}@${found.revision}`,
    EntityArn: marketplaceArn(account, found.kind, entityId),
    LastModifiedDate: isoSeconds(found.lastModified),
    Details: JSON.stringify(found.details),
    DetailsDocument: found.details,
  };
}
