import { z } from "zod";

/**
 * Unicode's explicit bidirectional formatting characters (UAX #9 section 2): the embeddings and
 * overrides U+202A–U+202E, the isolates U+2066–U+2069, and the marks U+200E, U+200F and U+061C.
 * In a name they reorder what a reader sees ("Trojan Source", CVE-2021-42574): U+202E can make
 * `evil‮gpj.exe` read as `evilexe.jpg`, and a tenant or client name shown in a list, an invitation
 * or the OAuth consent page could impersonate another. Ordinary right-to-left text (Arabic, Hebrew)
 * needs none of them: the implicit bidi algorithm orders it, and whoever displays a name isolates
 * it (`dir="auto"`, `<bdi>`), so refusing them costs no legitimate name.
 */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;

export const BIDI_MESSAGE =
  "must not contain bidirectional control characters (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C)";

/**
 * The fields that are free text a person typed and others read, each a `FreeText` (see below):
 * the fuzz tests find them here to send the refused characters to every route that takes one.
 */
export const freeTextFields = z.registry<{ max: number }>();

/**
 * Free text that people name things with and others read: display names, tenant names, API key
 * names, offer names and descriptions, OAuth client names. Trimmed, 1 to `max` characters, and
 * refused (a field error on this field, never silently altered) when it holds:
 * - a lone surrogate (a `\ud800` escape in JSON): not well-formed Unicode; storage would replace
 *   it with U+FFFD without a word;
 * - a control character (\p{Cc}; line feeds allowed with `lines`): NUL is refused by PostgreSQL,
 *   the others hide text in UIs and logs;
 * - a bidirectional control (BIDI_CONTROLS): it reorders what readers see.
 * Identifiers, secrets, URLs and e-mail addresses have their own formats and are not FreeText.
 * Invalid UTF-8 never gets this far: the body is refused before it is parsed (shared/src/http/json-body.ts).
 *
 * @example
 * export const TenantName = FreeText(100);
 * TenantName.safeParse("Acme\u202Egpj").success // false, issue on this field
 */
export const FreeText = (max: number, options: { lines?: boolean } = {}) => {
  // A description may span lines; a name may not.
  const control = options.lines ? /[^\P{Cc}\n]/u : /\p{Cc}/u;
  const schema = z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => s.isWellFormed(), { message: "must be well-formed Unicode" })
    .refine((s) => !control.test(s), {
      message: options.lines
        ? "must not contain control characters other than line feeds"
        : "must not contain control characters",
    })
    .refine((s) => !BIDI_CONTROLS.test(s), { message: BIDI_MESSAGE });
  freeTextFields.add(schema, { max });
  return schema;
};

/**
 * The top-level members of an object schema (through optional, nullable, default and pipes) that
 * are FreeText: what the fuzz tests fill with refused characters.
 *
 * @example
 * freeTextKeys(CreateTenantRequest) // ["name"]
 */
export function freeTextKeys(schema: z.ZodType): string[] {
  const object = unwrap(schema);
  if (!(object instanceof z.ZodObject)) return [];
  return Object.entries(object.shape as Record<string, z.ZodType>)
    .filter(([, field]) => freeTextFields.has(unwrap(field)))
    .map(([key]) => key);
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault)
      current = current.unwrap() as z.ZodType;
    else if (current instanceof z.ZodPipe) current = current.in as z.ZodType;
    else return current;
  }
}
