import { accessOf } from "../access.ts";
import { defineRoute, type RouteSpec } from "../route.ts";
import {
  Jwks,
  RefreshRequest,
  SignInRequest,
  SignInResponse,
  SignUpRequest,
  SignUpResponse,
  TokenResponse,
} from "./auth.ts";
import { InvitationPath, ReceivedInvitation, ReceivedInvitationList } from "./invitations.ts";
import { AuthorizedClientList, AuthorizedClientPath } from "./oauth.ts";
import {
  AccountDeleted,
  DeleteAccountRequest,
  NotificationPreferences,
  Profile,
  UpdateNotificationPreferencesRequest,
  UpdateProfileRequest,
} from "./users.ts";

/** identity-svc's routes of an account: sign-up, sign-in and tokens (public), and the signed-in user's own. */
// `public` is a reserved word in a module, hence the other name.
const { public: anyone, user } = accessOf("identity-svc");

/** What answering an invitation can refuse, whichever the answer. */
const answering = ["ACCOUNT_INACTIVE", "INVITATION_EXPIRED", "INVITATION_NOT_PENDING"] as const;

export const accountRoutes = [
  // auth (public: no credential)
  defineRoute({
    id: "auth.signup",
    method: "POST",
    path: "/v1/auth/signup",
    ...anyone,
    summary: "Create an account with e-mail and password",
    body: SignUpRequest,
    responses: { 201: SignUpResponse },
  }),
  defineRoute({
    id: "auth.signin",
    method: "POST",
    path: "/v1/auth/signin",
    ...anyone,
    summary:
      "Sign in: an access token, a refresh token and a device token. Failed sign-ins back off per account (429 SIGN_IN_THROTTLED), except for a client that presents the `device_token` of its last successful sign-in to the account: it backs off on its own, so others' wrong guesses do not lock it out",
    body: SignInRequest,
    problems: ["INVALID_CREDENTIALS", "ACCOUNT_DISABLED", "SIGN_IN_THROTTLED"],
    responses: { 200: SignInResponse },
  }),
  defineRoute({
    id: "auth.refresh",
    method: "POST",
    path: "/v1/auth/refresh",
    ...anyone,
    summary: "Trade a refresh token for new tokens (the old refresh token is spent)",
    body: RefreshRequest,
    problems: ["INVALID_REFRESH_TOKEN"],
    responses: { 200: TokenResponse },
  }),
  defineRoute({
    id: "auth.signout",
    method: "POST",
    path: "/v1/auth/signout",
    ...user,
    summary:
      "Sign out here: ends the session this access token belongs to (its refresh tokens stop working). Your other sessions and the MCP clients you authorized keep working; POST /v1/auth/signout-everywhere ends them all",
    responses: { 204: null },
  }),
  defineRoute({
    id: "auth.signout_everywhere",
    method: "POST",
    path: "/v1/auth/signout-everywhere",
    ...user,
    summary:
      "Sign out everywhere: ends every session of your account, this one included: every REST sign-in on any device and every MCP client you authorized (OAuth grants: their access and refresh tokens stop working at once). API keys are not sessions and keep working; revoke them under /v1/tenants/{id}/api-keys",
    responses: { 204: null },
  }),
  defineRoute({
    id: "auth.jwks",
    method: "GET",
    path: "/.well-known/jwks.json",
    ...anyone,
    summary: "The public keys access tokens are signed with",
    responses: { 200: Jwks },
  }),
  // the signed-in user
  defineRoute({
    id: "users.me.get",
    method: "GET",
    path: "/v1/users/me",
    ...user,
    summary: "Your profile",
    problems: ["ACCOUNT_INACTIVE"],
    responses: { 200: Profile },
  }),
  defineRoute({
    id: "users.me.update",
    method: "PATCH",
    path: "/v1/users/me",
    ...user,
    summary: "Change your name or picture",
    body: UpdateProfileRequest,
    problems: ["ACCOUNT_INACTIVE"],
    responses: { 200: Profile },
  }),
  defineRoute({
    id: "users.me.delete",
    method: "DELETE",
    path: "/v1/users/me",
    ...user,
    summary:
      "Delete your account: needs a sign-in at most 15 minutes old, or {password} in the body (401 REAUTHENTICATION_REQUIRED otherwise); 409 OWNS_ACTIVE_TENANTS while you own a tenant",
    body: DeleteAccountRequest,
    problems: [
      "ACCOUNT_INACTIVE",
      "OWNS_ACTIVE_TENANTS",
      "REAUTHENTICATION_REQUIRED",
      "INVALID_CREDENTIALS",
      "SIGN_IN_THROTTLED",
    ],
    responses: { 200: AccountDeleted },
  }),
  defineRoute({
    id: "users.me.notification_preferences.get",
    method: "GET",
    path: "/v1/users/me/notification-preferences",
    ...user,
    summary: "Your notification preferences",
    responses: { 200: NotificationPreferences },
  }),
  defineRoute({
    id: "users.me.notification_preferences.update",
    method: "PUT",
    path: "/v1/users/me/notification-preferences",
    ...user,
    summary: "Change notification preferences (omitted keys keep their value)",
    body: UpdateNotificationPreferencesRequest,
    responses: { 200: NotificationPreferences },
  }),
  defineRoute({
    id: "users.me.authorized_clients.list",
    method: "GET",
    path: "/v1/users/me/authorized-clients",
    ...user,
    summary: "The applications (MCP clients) you authorized, with their scopes and tenants",
    responses: { 200: AuthorizedClientList },
  }),
  defineRoute({
    id: "users.me.authorized_clients.revoke",
    method: "DELETE",
    path: "/v1/users/me/authorized-clients/{client_ref}",
    ...user,
    summary: "Revoke an application: its refresh and access tokens stop working",
    params: AuthorizedClientPath,
    responses: { 204: null },
  }),
  defineRoute({
    id: "users.me.invitations.list",
    method: "GET",
    path: "/v1/users/me/invitations",
    ...user,
    summary: "Your pending invitations: to join a tenant, or to take one over",
    problems: ["ACCOUNT_INACTIVE"],
    responses: { 200: ReceivedInvitationList },
  }),
  defineRoute({
    id: "users.me.invitations.accept",
    method: "POST",
    path: "/v1/users/me/invitations/{invitation_id}/accept",
    ...user,
    summary: "Accept an invitation: you become a member (or the owner) of the tenant",
    params: InvitationPath,
    problems: [...answering, "ALREADY_MEMBER", "NOT_A_MEMBER"],
    responses: { 200: ReceivedInvitation },
  }),
  defineRoute({
    id: "users.me.invitations.decline",
    method: "POST",
    path: "/v1/users/me/invitations/{invitation_id}/decline",
    ...user,
    summary: "Decline an invitation",
    params: InvitationPath,
    problems: answering,
    responses: { 200: ReceivedInvitation },
  }),
] as const satisfies readonly RouteSpec[];
