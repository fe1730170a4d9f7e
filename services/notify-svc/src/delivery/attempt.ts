import type { NotifyDeps } from "../deps.ts";
import type { Due } from "./claim.ts";
import { type Attempt, post } from "./send.ts";
import { webhookHeaders } from "./sign.ts";
import { slackBody } from "./slack-text.ts";

/** The secrets that sign now: the current one, and the previous one until its overlap ends. */
function liveSecrets(due: Due, now: Date): string[] {
  const previous =
    due.previous_secret && due.previous_valid_until && new Date(due.previous_valid_until) > now
      ? [due.previous_secret]
      : [];
  return due.secret ? [due.secret, ...previous] : [];
}

/** One attempt of a claimed delivery: a signed Standard Webhooks POST, or a Slack message. */
export function attempt(deps: NotifyDeps, due: Due): Promise<Attempt> {
  const url = new URL(due.url);
  if (due.kind === "slack") return post(url, {}, slackBody(due.body), deps.delivery);
  const headers = webhookHeaders(liveSecrets(due, deps.clock()), due.message_id, deps.clock(), due.body);
  return post(url, { ...headers, "user-agent": "Flowstate-Webhooks/1" }, due.body, deps.delivery);
}
