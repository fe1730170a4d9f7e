import { answerAuthorizationPage, type Consent } from "@flowstate/identity-svc/oauth/testing/oauth-driver";

/**
 * What a user's browser does with an authorization URL, over real HTTP through the gateway: load
 * the page, post the sign-in form (with the Origin a browser sends), post the consent form, and
 * return where the server redirects (the client's redirect URI with code, state and iss).
 */
export async function authorizeInBrowser(
  authorizationUrl: URL,
  user: { email: string; password: string },
  choice: Consent = {},
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
  const answer = await answerAuthorizationPage(post, page, user, choice);
  const location = answer.headers.get("location");
  if (answer.status !== 303 || !location) throw new Error(`consent: ${answer.status} ${await answer.text()}`);
  return new URL(location);
}
