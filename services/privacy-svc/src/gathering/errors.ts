/**
 * A participant did not hand over its part: unreachable, an error answer, a timeout, an answer
 * cut short, or a record outside its category's schema. The job may retry until the gathering
 * deadline, then fails with a reason the user can read.
 */
export class GatheringError extends Error {
  override name = "GatheringError";
  readonly service: string;
  readonly category: string;
  constructor(service: string, category: string, what: string, options: { cause?: unknown } = {}) {
    super(`${service} (${category}): ${what}`, options);
    this.service = service;
    this.category = category;
  }
}

/** The owning service says the account does not exist (deleted): the export is cancelled. */
export class AccountGone extends Error {
  override name = "AccountGone";
}
