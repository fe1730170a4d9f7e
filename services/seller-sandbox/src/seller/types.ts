/**
 * The in-memory state of one seller account. Everything the Catalog and Agreement APIs show comes
 * from here; the role and its policies do not (they live in the emulator's IAM). Times are epoch
 * milliseconds on the account's own clock (see clock.ts).
 */
export type ProductVisibility = "Public" | "Limited" | "Restricted" | "Draft";

export interface Dimension {
  Key: string;
  Name: string;
  Description: string;
  Unit: string;
  Types: string[];
}

export interface Product {
  id: string;
  title: string;
  visibility: ProductVisibility;
  shortDescription: string;
  longDescription: string;
  dimensions: Dimension[];
  lastModified: number;
}

/** A term as the Catalog API carries it (`{ Type: "LegalTerm", ... }`), kept verbatim. */
export type Term = { Type: string; Id?: string; [key: string]: unknown };

export interface Offer {
  id: string;
  productId: string;
  name?: string | undefined;
  description?: string | undefined;
  state: "Draft" | "Released";
  /** Private offers target buyer accounts; public ones have none. */
  buyerAccounts: string[];
  countryCodes?: string[] | undefined;
  /** `YYYY-MM-DD`, the last day the offer can be accepted (inclusive, UTC). */
  availabilityEndDate?: string | undefined;
  releaseDate?: number | undefined;
  preExistingAgreement?: Record<string, unknown> | undefined;
  /**
   * OfferSummary members: the sandbox has no offer sets, resale authorizations or renewals, but
   * filters and sorts on them as the model allows; `targetAgreementId` is set by
   * CreateReplacementOffer (the agreement the offer replaces).
   */
  offerSetId?: string | undefined;
  resaleAuthorizationId?: string | undefined;
  targetAgreementId?: string | undefined;
  targetAgreementIntent?: "Renew" | undefined;
  /** Every offer a seller creates through StartChangeSet is `Seller`; AWS-created ones say `AwsMarketplace`. */
  createdBySource: "Seller" | "AwsMarketplace";
  terms: Term[];
  revision: number;
  lastModified: number;
}

/** Agreement statuses as AWS's Agreement API names them (the one list: search filter, control plane, types). */
export const AGREEMENT_STATUSES = [
  "ACTIVE",
  "ARCHIVED",
  "CANCELLED",
  "EXPIRED",
  "RENEWED",
  "REPLACED",
  "ROLLED_BACK",
  "SUPERSEDED",
  "TERMINATED",
] as const;
export type AgreementStatus = (typeof AGREEMENT_STATUSES)[number];

export interface Agreement {
  id: string;
  acceptorAccountId: string;
  offerId: string;
  productId: string;
  offerSetId?: string | undefined;
  acceptanceTime: number;
  startTime: number;
  /** Null for pay-as-you-go agreements, which have no end. */
  endTime: number | null;
  status: AgreementStatus;
  /** The offer's terms the buyer accepted (GetAgreementTerms answers them). */
  terms: Term[];
}

export type ChangeSetStatus = "PREPARING" | "APPLYING" | "SUCCEEDED" | "CANCELLED" | "FAILED";

export interface ChangeRecord {
  ChangeType: string;
  ChangeName?: string | undefined;
  /** Entity type with version, e.g. `Offer@1.0`. */
  EntityType: string;
  /** Resolved at start time (CreateOffer ids are allocated then), so authorization sees real ARNs. */
  EntityId: string;
  Details: Record<string, unknown>;
  /** Whether the caller sent `Details` (string) or `DetailsDocument`; answers echo the same form. */
  sentAsString: boolean;
  ErrorDetailList?: { ErrorCode: string; ErrorMessage: string }[] | undefined;
}

export interface ChangeSet {
  id: string;
  name: string;
  intent: "VALIDATE" | "APPLY";
  status: ChangeSetStatus;
  startTime: number;
  endTime?: number | undefined;
  failureCode?: "CLIENT_ERROR" | "SERVER_FAULT" | undefined;
  failureDescription?: string | undefined;
  changes: ChangeRecord[];
  clientRequestToken: string;
  /** Hash of the request, to tell an idempotent retry from a token reused for a different request. */
  fingerprint: string;
}

export type FaultKind = "throttle" | "error" | "latency";

export interface Fault {
  kind: FaultKind;
  /** Operation names it applies to (`ListEntities`, `AssumeRole`, ...); all when empty. */
  operations: string[];
  /** How many more requests it hits; unlimited when undefined. */
  remaining?: number | undefined;
  latencyMs: number;
}

export interface SellerState {
  account: string;
  sellerId: string;
  sellerName: string;
  payoutCurrencies: string[];
  sellerLastModified: number;
  products: Map<string, Product>;
  offers: Map<string, Offer>;
  agreements: Agreement[];
  changeSets: Map<string, ChangeSet>;
  /** Entity id → id of the open change set that locks it. */
  locks: Map<string, string>;
  clockOffsetMs: number;
  changeSetStepMs: number;
  faults: Fault[];
  /** Calls per operation (`SearchAgreements`, `AssumeRole`, ...) since the account was seeded, for rate tests. */
  calls: Map<string, number>;
  timers: Set<ReturnType<typeof setTimeout>>;
}
