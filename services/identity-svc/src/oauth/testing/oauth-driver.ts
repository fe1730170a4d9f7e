import { createHash, randomBytes } from "node:crypto";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import type { Harness, TestUser } from "../../testing/harness.ts";

/** A PKCE pair (RFC 7636, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** The hidden fields of the page's form (interaction, csrf), as a browser would submit them. */
export function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)) out[m[1]!] = m[2]!;
  return out;
}

/** The `value`s of the tenant select on the consent page. */
export const tenantOptions = (html: string) => [...html.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]!);

/** What the person answers on the consent page: allow (default) or deny, for which tenant (default the first offered). */
export interface Consent {
  decision?: "allow" | "deny";
  tenantId?: string;
}

/**
 * What a person does on the authorization page (`authorizePage`, as loaded): sign in as `user` on
 * its form, then answer the consent page. `post` submits a form as a browser would (with the
 * issuer's Origin). Answers the consent's answer: a 303 to the client's redirect URI.
 */
export async function answerAuthorizationPage(
  post: (path: string, fields: Record<string, string>) => Promise<Response>,
  authorizePage: Response,
  user: { email: string; password: string },
  consent: Consent = {},
): Promise<Response> {
  const html = await authorizePage.text();
  if (authorizePage.status !== 200)
    throw new Error(`authorization page: ${authorizePage.status} ${html.slice(0, 300)}`);
  const signedIn = await post("/oauth/authorize/signin", {
    ...hiddenFields(html),
    email: user.email,
    password: user.password,
  });
  const consentHtml = await signedIn.text();
  if (signedIn.status !== 200) throw new Error(`sign-in: ${signedIn.status} ${consentHtml.slice(0, 300)}`);
  const fields: Record<string, string> = { ...hiddenFields(consentHtml), decision: consent.decision ?? "allow" };
  const tenant = consent.tenantId ?? tenantOptions(consentHtml)[0];
  if (tenant) fields.tenant_id = tenant;
  return post("/oauth/authorize/consent", fields);
}

/**
 * Drives identity-svc's authorization server directly (app.request), the way a browser and a
 * public client would: registration, the authorization request, the sign-in and consent forms
 * (posted with the issuer's Origin), and the token endpoint.
 */
export function oauthDriver(h: Harness) {
  const issuer = h.deps.oauth.issuer;
  const origin = new URL(issuer).origin;
  const form = async (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    h.app.request(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin, ...headers },
      body: new URLSearchParams(fields).toString(),
    });

  return {
    issuer,
    form,
    async register(redirectUris: string[], extra: Record<string, unknown> = {}): Promise<string> {
      const res = await h.call("POST", "/oauth/register", {
        body: {
          client_name: "Test MCP client",
          redirect_uris: redirectUris,
          token_endpoint_auth_method: "none",
          ...extra,
        },
      });
      if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { client_id: string }).client_id;
    },
    authorize(params: Record<string, string>): Promise<Response> {
      return Promise.resolve(h.app.request(`/oauth/authorize?${new URLSearchParams(params)}`));
    },
    /** An authorization request (code flow, a fresh PKCE pair): its page and the verifier. */
    async authorizeWithPkce(clientId: string, redirectUri: string, extra: Record<string, string> = {}) {
      const { verifier, challenge } = pkce();
      const page = await this.authorize({
        response_type: "code",
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: "S256",
        ...extra,
      });
      return { page, verifier };
    },
    /**
     * An authorization request for `scope` and the sign-in as `user` on its page: the consent page
     * (200) the person now sees, and the PKCE verifier for the code it leads to.
     */
    async consentPage(
      user: Pick<TestUser, "email" | "password">,
      clientId: string,
      redirectUri: string,
      scope: string,
    ) {
      const { page, verifier } = await this.authorizeWithPkce(clientId, redirectUri, { scope });
      const signedIn = await form("/oauth/authorize/signin", {
        ...hiddenFields(await page.text()),
        email: user.email,
        password: user.password,
      });
      const html = await signedIn.text();
      if (signedIn.status !== 200) throw new Error(`sign-in: ${signedIn.status} ${html.slice(0, 300)}`);
      return { html, verifier };
    },
    /** Signs in on the page of `authorizePage` and answers the consent; returns the consent answer (303). */
    signInAndConsent: (authorizePage: Response, user: Pick<TestUser, "email" | "password">, consent: Consent = {}) =>
      answerAuthorizationPage(form, authorizePage, user, consent),
    token(fields: Record<string, string>): Promise<Response> {
      return form("/oauth/token", fields, { origin: "" });
    },
    /** A whole authorization for `user`: the code and what was used to get it. */
    async code(
      user: Pick<TestUser, "email" | "password">,
      clientId: string,
      redirectUri: string,
      extra: Record<string, string> = {},
    ) {
      const state = randomBytes(8).toString("hex");
      const { page, verifier } = await this.authorizeWithPkce(clientId, redirectUri, { state, ...extra });
      const answer = await this.signInAndConsent(page, user);
      const location = new URL(answer.headers.get("location") ?? "about:blank");
      const code = location.searchParams.get("code");
      if (answer.status !== 303 || !code) throw new Error(`consent: ${answer.status} ${location.href}`);
      return { code: recordSecret(code), verifier, state, location };
    },
    /** Code and tokens in one go. */
    async tokens(
      user: Pick<TestUser, "email" | "password">,
      clientId: string,
      redirectUri: string,
      extra: Record<string, string> = {},
    ) {
      const { code, verifier } = await this.code(user, clientId, redirectUri, extra);
      const res = await this.token({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        client_id: clientId,
        code_verifier: verifier,
      });
      if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { access_token: string; refresh_token: string; scope: string };
      recordSecret(body.access_token);
      recordSecret(body.refresh_token);
      return body;
    },
  };
}
