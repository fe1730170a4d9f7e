import type { Caller } from "../credentials/authenticate.ts";
import { elements } from "./xml.ts";

/** GetCallerIdentity: who the sandbox thinks signed the request (handy to check a key pairing). */
export function getCallerIdentity(caller: Caller): string {
  const userId =
    caller.kind === "session"
      ? caller.session.assumedRoleId
      : `AROA${caller.principal.name.toUpperCase().replace(/[^A-Z]/g, "")}`;
  return elements({ UserId: userId, Account: caller.account, Arn: caller.arn });
}
