import type { CategorySpec } from "@flowstate/contracts/internal/personal-data";
import { GatheringError } from "../gathering/errors.ts";

/** Output is handed on in pieces of about this size: one deflate call per record would cost more than the JSON. */
const CHUNK = 64 * 1024;

/**
 * One category's file of the archive: a JSON array of its records (`list`), or its single record
 * as an object (`object`), pretty enough to read. Every record is checked against the category's
 * strict schema first, so nothing outside the category reaches the archive; `onCount` gets the
 * number of records once the file is complete (for the manifest).
 */
export async function* categoryDocument(
  name: string,
  spec: CategorySpec,
  records: AsyncIterable<unknown>,
  onCount: (n: number) => void,
): AsyncGenerator<string> {
  let count = 0;
  let out = spec.kind === "list" ? "[" : "";
  for await (const raw of records) {
    const parsed = spec.record.safeParse(raw);
    if (!parsed.success) throw new GatheringError(spec.service, name, "a record does not match its category");
    count++;
    if (spec.kind === "object") {
      if (count > 1) throw new GatheringError(spec.service, name, "more than one record for a single-record category");
      out += JSON.stringify(parsed.data, null, 2);
    } else {
      out += `${count > 1 ? "," : ""}\n  ${JSON.stringify(parsed.data)}`;
    }
    if (out.length >= CHUNK) {
      yield out;
      out = "";
    }
  }
  if (spec.kind === "object" && count !== 1) throw new GatheringError(spec.service, name, "no record");
  yield `${out}${spec.kind === "list" ? (count ? "\n]\n" : "]\n") : "\n"}`;
  onCount(count);
}
