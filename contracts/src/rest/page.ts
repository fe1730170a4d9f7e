import { z } from "zod";

/**
 * Keyset pagination as our own stores answer it (audit-svc, partner-svc): `limit` and an opaque
 * `cursor` in, one page `{ items, next_cursor }` out, `next_cursor` null on the last page. Lists
 * that pass AWS's own page token through (offers, agreements, products) keep AWS's shape.
 */

/**
 * An opaque position in a list, base64url of the last item's sort key; `maxLength` bounds what
 * that key can encode.
 *
 * @example
 * export const AuditCursor = pageCursor(200);
 */
export const pageCursor = (maxLength: number) =>
  z.string().regex(new RegExp(`^[A-Za-z0-9_-]{1,${maxLength}}$`), "expected a cursor from next_cursor");

/**
 * The query fields of a page: spread into the list's query object after its filters.
 *
 * @example
 * export const PartnerListQuery = z.object(pageQuery(PageCursor));
 */
export const pageQuery = <C extends z.ZodType>(cursor: C) => ({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: cursor.optional(),
});

/**
 * One page of `item`s.
 *
 * @example
 * export const AuditEventList = pageOf(AuditEvent, AuditCursor);
 */
export const pageOf = <I extends z.ZodType, C extends z.ZodType>(item: I, cursor: C) =>
  z.object({ items: z.array(item), next_cursor: cursor.nullable() });
