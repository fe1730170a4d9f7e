import { Timestamp } from "@flowstate/contracts/rest/identity/common";
import { z } from "zod";
import { DomainError } from "../errors/domain-error.ts";

/**
 * The one way a list encodes and decodes its `cursor`: base64url of the JSON of a position whose
 * shape a zod schema gives. A cursor is opaque to clients but not trusted: anyone can base64 a
 * JSON array, and a forged `["1","1"]` that only passed a loose check reached PostgreSQL's
 * `::timestamptz` cast and answered 500. Decoding parses the position against its schema, so a
 * value reaches SQL only in the exact shape the list itself gave out; anything else is 400
 * INVALID_CURSOR (the code every list route declares beside its query schema).
 *
 * @example
 * const cursor = pageCursorCodec(z.tuple([cursorTimestamp, cursorBigint]));
 * const after = query.cursor ? cursor.decode(query.cursor) : null;
 * return { items, next_cursor: more ? cursor.encode([last.occurred_at, last.id]) : null };
 */
export function pageCursorCodec<P extends z.ZodType>(position: P) {
  return {
    encode: (value: z.input<P>): string => Buffer.from(JSON.stringify(value)).toString("base64url"),
    /** The position `cursor` names, or 400 INVALID_CURSOR when it is not one this list gives out. */
    decode(cursor: string): z.output<P> {
      let json: unknown;
      try {
        json = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
      } catch {
        throw invalidCursor();
      }
      const parsed = position.safeParse(json);
      if (!parsed.success) throw invalidCursor();
      return parsed.data;
    },
  };
}

const invalidCursor = () => new DomainError("invalid", "INVALID_CURSOR", "the cursor is not one this listing gave out");

/**
 * A timestamp as a position holds it: RFC 3339 with an offset PostgreSQL takes, any fraction (its
 * JSON text keeps microseconds, which a JS Date would lose). `Date.parse` is no check: it takes "1"
 * (year 2001) where PostgreSQL refuses it.
 */
export const cursorTimestamp = Timestamp;

/** A bigint row id as text: at most 18 digits, so it always fits PostgreSQL's bigint. */
export const cursorBigint = z.string().regex(/^[1-9][0-9]{0,17}$/);

/**
 * A text key (an upstream id): printable, no NUL (PostgreSQL refuses a NUL in text with an encoding
 * error, a 500 if it got that far), bounded.
 */
export const cursorText = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[^\p{Cc}]+$/u);
