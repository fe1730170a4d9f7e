import type { IdentityApp } from "../http/env.ts";
import { registerOAuthAuthorize } from "./routes/authorize.ts";
import { registerOAuthConsent } from "./routes/authorize-consent.ts";
import { registerOAuthSignIn } from "./routes/authorize-signin.ts";
import { mountAuthorizedClientsList, mountAuthorizedClientsRevoke } from "./routes/authorized-clients.ts";
import { registerOAuthMetadata } from "./routes/metadata.ts";
import { registerOAuthRegister } from "./routes/register.ts";
import { registerOAuthRevoke } from "./routes/revoke.ts";
import { registerOAuthToken } from "./routes/token.ts";

/** The authorization server's routes (registry: contracts oauthRoutes) and the user's authorized-clients routes. */
export function mountOAuthRoutes(app: IdentityApp): void {
  registerOAuthMetadata(app);
  registerOAuthAuthorize(app);
  registerOAuthSignIn(app);
  registerOAuthConsent(app);
  registerOAuthToken(app);
  registerOAuthRegister(app);
  registerOAuthRevoke(app);
  mountAuthorizedClientsList(app);
  mountAuthorizedClientsRevoke(app);
}
