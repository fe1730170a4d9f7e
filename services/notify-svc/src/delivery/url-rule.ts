import { DomainError } from "@flowstate/shared/errors/domain-error";
import { AddressRefused, resolvePublicAddress } from "@flowstate/shared/net/public-address";
import type { DeliverySettings } from "../deps.ts";

const refused = (reason: string) =>
  new DomainError("unprocessable", "WEBHOOK_URL_REFUSED", "The endpoint URL is not acceptable", {
    extensions: { reason },
  });

/**
 * Whether an endpoint URL may be registered (decisions.md "Notifications"): https (http only under
 * the local-development flag), no credentials in it, a Slack endpoint on Slack's webhook host, and
 * a host that resolves to public addresses only (the same check identity-svc applies to client
 * metadata documents, shared/src/net/public-address.ts). Each attempt checks the address again
 * (send.ts): a name that later resolves elsewhere is refused then.
 */
export async function checkEndpointUrl(raw: string, kind: "webhook" | "slack", s: DeliverySettings): Promise<URL> {
  const url = new URL(raw);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && s.allowHttp)) throw refused("https_required");
  if (url.username || url.password) throw refused("credentials_in_url");
  if (kind === "slack" && !s.allowHttp && url.hostname !== "hooks.slack.com") throw refused("not_a_slack_webhook");
  try {
    await resolvePublicAddress(url.hostname, s.allowedAddresses);
  } catch (err) {
    if (err instanceof AddressRefused) throw refused(err.reason);
    throw err;
  }
  return url;
}
