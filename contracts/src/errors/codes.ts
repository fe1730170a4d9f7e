/**
 * Every problem `code` Flowstate answers, with its HTTP status and what it means to a client. A
 * DomainError or HttpProblem can only be built with a code from here (a type error otherwise), the
 * routes of the registry declare which of them they answer (`problems`), and the OpenAPI document
 * lists each route's codes under their statuses. A new code is added here first, with its meaning.
 */
export const problemCodes = {
  // 400
  BAD_REQUEST: {
    status: 400,
    meaning: "The request is not valid HTTP, or its body does not match its Content-Length.",
  },
  VALIDATION_FAILED: {
    status: 400,
    meaning: "A path parameter, query parameter or body field is invalid; see `errors[]`.",
  },
  CONFIRMATION_REQUIRED: {
    status: 400,
    meaning:
      'A destructive MCP tool was called without its confirmation (delete_my_account: confirm "delete"); nothing was done.',
  },
  TENANT_REQUIRED: {
    status: 400,
    meaning:
      "A tenant MCP tool was called on /mcp without a tenant: connect to /mcp/tenants/{tenant_id}, or use a tenant API key.",
  },
  MALFORMED_JSON: { status: 400, meaning: "The body is declared JSON but does not parse, or is empty." },
  MARKETPLACE_VALIDATION_FAILED: {
    status: 400,
    meaning: "AWS Marketplace refused the request as invalid (`upstream_error`: AWS's error name).",
  },
  // OAuth protocol endpoints (token, registration, revocation): the RFC 6749 `error` beside these codes.
  OAUTH_INVALID_REQUEST: {
    status: 400,
    meaning: "OAuth invalid_request: a parameter is missing, repeated or malformed.",
  },
  OAUTH_INVALID_GRANT: {
    status: 400,
    meaning:
      "OAuth invalid_grant: the code or refresh token is unknown, spent, expired, revoked or another client's; authorize again.",
  },
  OAUTH_UNSUPPORTED_GRANT_TYPE: {
    status: 400,
    meaning: "OAuth unsupported_grant_type: only authorization_code and refresh_token.",
  },
  OAUTH_INVALID_SCOPE: { status: 400, meaning: "OAuth invalid_scope: a scope is unknown or more than was granted." },
  OAUTH_INVALID_TARGET: {
    status: 400,
    meaning: "OAuth invalid_target (RFC 8707): the resource is not one tokens are issued for.",
  },
  OAUTH_INVALID_CLIENT_METADATA: {
    status: 400,
    meaning: "OAuth invalid_client_metadata (RFC 7591): the registration is not acceptable.",
  },
  OAUTH_INVALID_REDIRECT_URI: {
    status: 400,
    meaning: "OAuth invalid_redirect_uri (RFC 7591): https, loopback http or a private-use scheme, no fragment.",
  },
  OAUTH_INVALID_CLIENT: {
    status: 401,
    meaning: "OAuth invalid_client: the client is unknown or presented a secret (clients are public).",
  },
  INVALID_CURSOR: { status: 400, meaning: "The `cursor` is not one this listing gave out." },
  // 401
  UNAUTHENTICATED: { status: 401, meaning: "No credential was presented, or the caller is not signed in." },
  INVALID_TOKEN: {
    status: 401,
    meaning: "The bearer credential is malformed or its signature, issuer or audience is wrong.",
  },
  TOKEN_EXPIRED: { status: 401, meaning: "The access token has expired; refresh it." },
  SESSION_REVOKED: {
    status: 401,
    meaning: "The session ended (signed out, account disabled or deleted); sign in again.",
  },
  INVALID_API_KEY: { status: 401, meaning: "The API key is unknown, revoked, or its creator may no longer use it." },
  INVALID_CREDENTIALS: { status: 401, meaning: "The e-mail address or the password is wrong." },
  INVALID_REFRESH_TOKEN: { status: 401, meaning: "The refresh token is unknown, spent or expired; sign in again." },
  REAUTHENTICATION_REQUIRED: {
    status: 401,
    meaning:
      'This needs a sign-in at most `max_age_seconds` old: sign in again and retry with the new access token, or send `{"password": …}` in the body.',
  },
  ACCOUNT_INACTIVE: { status: 401, meaning: "The account behind the credential is disabled or deleted." },
  // 403
  FORBIDDEN: { status: 403, meaning: "The caller may not do this." },
  ACCOUNT_DISABLED: { status: 403, meaning: "The account is disabled; sign-in is refused." },
  INSUFFICIENT_ROLE: { status: 403, meaning: "The caller's role in the tenant is below the route's minimum role." },
  INSUFFICIENT_SCOPE: { status: 403, meaning: "The API key's scope (read) does not allow this (write) operation." },
  API_KEY_NOT_ALLOWED: { status: 403, meaning: "This operation needs a user's access token, not an API key." },
  FEATURE_DISABLED: {
    status: 403,
    meaning:
      "The tenant's feature flag the route needs (`feature`) is off; an admin turns it on in Settings, Features.",
  },
  // 404
  NOT_FOUND: {
    status: 404,
    meaning: "No such route or object; an object the caller cannot see looks exactly the same.",
  },
  ACCOUNT_GONE: {
    status: 404,
    meaning:
      "Internal (personal-data gathering): the account does not exist or is deleted. Distinct from NOT_FOUND so that a misrouted call or a missing route is never read as a deletion.",
  },
  // 405, 408
  METHOD_NOT_ALLOWED: { status: 405, meaning: "The path exists under other methods; see `Allow`." },
  REQUEST_TIMEOUT: { status: 408, meaning: "The request took too long to arrive." },
  // 409
  OWNS_ACTIVE_TENANTS: {
    status: 409,
    meaning: "The account still owns active tenants (`tenant_ids`); transfer or delete them first.",
  },
  LAST_OWNER: { status: 409, meaning: "The owner cannot be removed or demoted; transfer ownership first." },
  ALREADY_MEMBER: { status: 409, meaning: "The person is already a member of the tenant." },
  CONNECTOR_NOT_CONNECTED: {
    status: 409,
    meaning: "The tenant has no Marketplace connector; follow the onboarding, then connect.",
  },
  CONNECTOR_ACCESS_DENIED: {
    status: 409,
    meaning:
      "The seller account's connector role refused the call (`upstream_error`); the health endpoint says what to change.",
  },
  CONNECTOR_PERMISSION_MISSING: {
    status: 409,
    meaning:
      "The connector role lacks a permission this operation needs (`missing_permission`, e.g. aws-marketplace:DescribeAgreement); add it to the role's inline policy, then retry. Nothing was submitted.",
  },
  AGREEMENT_NOT_ACTIVE: {
    status: 409,
    meaning: "Only an active agreement can be replaced; this one is not (`agreement_status`). Nothing was submitted.",
  },
  OFFER_CHANGE_IN_PROGRESS: {
    status: 409,
    meaning: "Another change set is still being applied to this offer (AWS ResourceInUseException); wait for it.",
  },
  MARKETPLACE_CONFLICT: { status: 409, meaning: "AWS Marketplace reported a conflict (`upstream_error`)." },
  OFFER_NOT_RELEASED: {
    status: 409,
    meaning: "Only a released offer can be expired; this one is a draft (`state`). Nothing was submitted.",
  },
  OFFER_NOT_DRAFT: {
    status: 409,
    meaning:
      "Only a draft offer's details can be changed; this one is released or expired (`state`). Nothing was submitted.",
  },
  OFFER_ALREADY_RELEASED: {
    status: 409,
    meaning:
      "The offer is already released (`state`: released or expired); only a draft can be released. Nothing was submitted.",
  },
  SELLER_ACCOUNT_IN_USE: {
    status: 409,
    meaning:
      "The seller account (AWS account id) is already connected to another tenant; disconnect it there first (one tenant per seller account).",
  },
  CONNECTOR_CHANGED: {
    status: 409,
    meaning: "The connector was disconnected while it was being verified; read the status again and retry.",
  },
  INVITATION_NOT_PENDING: {
    status: 409,
    meaning: "The invitation was already accepted, declined or cancelled (`status` says which).",
  },
  // 410
  INVITATION_EXPIRED: { status: 410, meaning: "The invitation is past its seven days; ask for a new one." },
  EXPORT_EXPIRED: {
    status: 410,
    meaning: "The export's file was deleted 7 days after it was written (no URL any more); request a new export.",
  },
  // 413, 415, 422, 429, 431
  PAYLOAD_TOO_LARGE: { status: 413, meaning: "The request body is larger than the service accepts." },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: "The body must be `application/json`." },
  NOT_A_MEMBER: { status: 422, meaning: "The new owner must be an active member of the tenant." },
  ALREADY_OWNER: { status: 422, meaning: "The caller already owns this tenant." },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    meaning: "The Idempotency-Key was already used for a different request; use a new key.",
  },
  OFFER_NOT_CLONEABLE: {
    status: 422,
    meaning: "The offer has terms a clone cannot carry over (`terms`); create the new offer instead.",
  },
  MARKETPLACE_REFUSED: { status: 422, meaning: "AWS Marketplace refused the request (`upstream_error`)." },
  ENDPOINT_LIMIT_REACHED: {
    status: 422,
    meaning: "The tenant already has the most notification endpoints it may have (20); remove one first.",
  },
  WEBHOOK_URL_REFUSED: {
    status: 422,
    meaning:
      "The endpoint URL is not https, does not resolve, or resolves to a non-public address (`reason`); give a public https URL.",
  },
  CONNECTOR_VERIFICATION_FAILED: {
    status: 422,
    meaning:
      "Connecting failed at `step` (assume_role or verify_catalog_read, with AWS's `upstream_error`; or external_id_not_enforced: the role also accepts a wrong external ID); `hint` and `diagnosis` say what to change.",
  },
  RATE_LIMITED: { status: 429, meaning: "Too many requests; see `Retry-After`." },
  OAUTH_TEMPORARILY_UNAVAILABLE: {
    status: 429,
    meaning:
      "OAuth temporarily_unavailable: too many client registrations from this address in the last hour; see `Retry-After`.",
  },
  SIGN_IN_THROTTLED: {
    status: 429,
    meaning:
      "Too many failed sign-ins for this e-mail address (whether or not it has an account); wait `Retry-After` seconds.",
  },
  EXPORT_RATE_LIMITED: {
    status: 429,
    meaning:
      "One successful export per 24 hours: ask again after `Retry-After`; `job_id` names the export to download meanwhile.",
  },
  HEADERS_TOO_LARGE: { status: 431, meaning: "The request headers are too large." },
  // 5xx
  INTERNAL_ERROR: { status: 500, meaning: "An internal error; quote `request_id` to support." },
  SERVICE_UNAVAILABLE: { status: 503, meaning: "The service behind the route is not part of this deployment." },
  UPSTREAM_UNAVAILABLE: {
    status: 503,
    meaning: "The service or upstream behind the route did not answer; see `Retry-After`.",
  },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ProblemCode = keyof typeof problemCodes;
export type ProblemStatus<C extends ProblemCode> = (typeof problemCodes)[C]["status"];

/** The status a code is always answered with. */
export const statusOf = (code: ProblemCode): number => problemCodes[code].status;
