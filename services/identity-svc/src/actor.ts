import type { VerifiedIdentity } from "@flowstate/contracts/internal/identity";

/** Who is calling: a gateway-verified identity, nobody (public routes), or the service itself. */
export type Actor = VerifiedIdentity | { kind: "anonymous" } | { kind: "system" };
