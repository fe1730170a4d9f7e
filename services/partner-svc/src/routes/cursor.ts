import type { PartnerListQuery } from "@flowstate/contracts/rest/partner/sync-state";
import { HttpProblem } from "@flowstate/shared/http/http-problem";
import { decodeCursor } from "../verbs/list-sync-state.ts";

/** The position of `cursor`, or 400 VALIDATION_FAILED on the field when it is not one we issued. */
export function cursorOf(query: PartnerListQuery): [string, string] | null {
  if (!query.cursor) return null;
  const position = decodeCursor(query.cursor);
  if (!position) {
    throw new HttpProblem("VALIDATION_FAILED", "the query string is invalid", {
      errors: [{ path: "cursor", code: "invalid_cursor", message: "not a cursor from next_cursor" }],
    });
  }
  return position;
}
