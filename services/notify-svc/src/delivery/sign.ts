import { Webhook } from "standardwebhooks";

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes, base64. */
export function newSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`;
}

/**
 * The three Standard Webhooks headers of one attempt. `webhook-id` is the message id (the same on
 * every retry and replay, so a receiver drops duplicates), `webhook-timestamp` this attempt's time,
 * and `webhook-signature` one `v1,<base64>` per live secret, space-separated: after a rotation the
 * previous secret signs too until it expires, so a receiver still holding it keeps verifying.
 */
export function webhookHeaders(
  secrets: readonly string[],
  messageId: string,
  at: Date,
  body: string,
): Record<string, string> {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((s) => new Webhook(s).sign(messageId, at, body)).join(" "),
  };
}
