import { hiddenFields, tenantOptions } from "@flowstate/identity-svc/oauth/testing/oauth-driver";

/**
 * What a user's browser does with an authorization URL, over real HTTP through the gateway: load
 * the page, post the sign-in form (with the Origin a browser sends), post the consent form, and
 * return where the server redirects (the client's redirect URI with code, state and iss).
 */
export async function authorizeInBrowser(
  authorizationUrl: URL,
  user: { email: string; password: string },
  choice: { decision?: "allow" | "deny"; tenantId?: string } = {},
): Promise<URL> {
  const origin = authorizationUrl.origin;
  const post = (path: string, fields: Record<string, string>) =>
    fetch(`${origin}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams(fields).toString(),
    });
  const page = await fetch(authorizationUrl, { redirect: "manual" });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`authorization page: ${page.status} ${html.slice(0, 300)}`);
  const signedIn = await post("/oauth/authorize/signin", {
    ...hiddenFields(html),
    email: user.email,
    password: user.password,
  });
  const consent = await signedIn.text();
  if (signedIn.status !== 200) throw new Error(`sign-in: ${signedIn.status} ${consent.slice(0, 300)}`);
  const fields: Record<string, string> = { ...hiddenFields(consent), decision: choice.decision ?? "allow" };
  const tenant = choice.tenantId ?? tenantOptions(consent)[0];
  if (tenant) fields.tenant_id = tenant;
  const answer = await post("/oauth/authorize/consent", fields);
  const location = answer.headers.get("location");
  if (answer.status !== 303 || !location) throw new Error(`consent: ${answer.status} ${await answer.text()}`);
  return new URL(location);
}
