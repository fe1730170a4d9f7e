/**
 * A Slack incoming webhook's body for a message: one line of text naming the kind and its ids and
 * states (the message's data, which never holds an e-mail address).
 */
export function slackBody(messageBody: string): string {
  const { type, data } = JSON.parse(messageBody) as { type: string; data: Record<string, unknown> };
  const facts = Object.entries(data)
    .filter(([k, v]) => k !== "tenant_id" && (typeof v === "string" || typeof v === "number"))
    .map(([k, v]) => `${k}: \`${String(v)}\``)
    .join(", ");
  return JSON.stringify({ text: `Flowstate *${type}*${facts ? ` (${facts})` : ""}` });
}
