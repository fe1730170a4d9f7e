import type { Keyring as CallerKeys } from "@flowstate/shared/auth/keyring";
import type { Database } from "@flowstate/shared/db/open-database";
import type { Logger } from "@flowstate/shared/log/logger";
import type { Argon2Params } from "./crypto/password.ts";
import type { TenantReads } from "./db/tenant-reads.ts";
import type { DoorLeases } from "./doors/door-leases.ts";
import type { DoorPushSettings, InvalidationPusher } from "./doors/push-invalidations.ts";
import type { OAuthSettings } from "./oauth/settings.ts";
import type { AccessTokenConfig } from "./tokens/access-token.ts";
import type { RotationTiming } from "./tokens/key-set.ts";
import type { KeyStore } from "./tokens/key-store.ts";
import type { Keyring } from "./tokens/keyring.ts";
import type { SignInThrottleSettings } from "./verbs/lib/sign-in-backoff.ts";

/** Everything identity-svc runs on, built once at boot (main.ts) or by a test (testing/harness.ts). */
export interface IdentityDeps {
  orm: Database;
  /** The ORM's schema, for hand-written SQL. */
  schema: string;
  /** The tenant read path's prepared statements and coalescing reader (db/tenant-reads.ts). */
  tenantReads: TenantReads;
  logger: Logger;
  /**
   * Keys per caller (ADR 0014): what it verifies (the doors, the services' credential checks) and
   * signs (its invalidation pushes to the doors); not the token-signing `keyring` below.
   */
  callerKeys: CallerKeys;
  keyring: Keyring;
  keyStore: KeyStore;
  accessToken: AccessTokenConfig;
  rotation: RotationTiming;
  /** Absolute lifetime of a session (its refresh-token family), in ms. */
  sessionTtlMs: number;
  password: { params: Argon2Params; dummyHash: string };
  /** Sign-in backoff per address and per device token (verbs/sign-in-throttle.ts). */
  signInThrottle: SignInThrottleSettings;
  /** HMAC key of the throttle rows' address keys (derived from identity-svc's own SIGN_IN_THROTTLE_SECRET_ID). */
  signInThrottleKey: Buffer;
  clock: () => Date;
  /** The OAuth 2.1 authorization server for MCP clients (src/oauth). */
  oauth: OAuthSettings;
  /** The door instances' leases and the push of every call's invalidations to them (ADR 0011). */
  doors: { leases: DoorLeases; push: InvalidationPusher; settings: DoorPushSettings };
}
