import { type PersonalDataCategory, personalDataCategories } from "@flowstate/contracts/internal/personal-data";

/** What the user reads on a failed job: what happened, that nothing was exported, what to do. */
export function participantFailureReason(service: string): string {
  const what = (Object.keys(personalDataCategories) as PersonalDataCategory[])
    .filter((c) => personalDataCategories[c].service === service)
    .map((c) => c.replaceAll("_", " "));
  const list =
    what.length > 1 ? `${what.slice(0, -1).join(", ")} and ${what.at(-1)}` : (what[0] ?? "some of your data");
  return (
    `Your ${list} could not be collected in time because a part of Flowstate was unavailable. ` +
    "Nothing was exported. Please request a new export; you can do so right away."
  );
}

export const TIMED_OUT_REASON =
  "The export took too long and was stopped. Nothing was exported. Please request a new export; you can do so right away.";

export const ACCOUNT_DELETED_REASON = "The account was deleted, so the export was cancelled and nothing was exported.";
