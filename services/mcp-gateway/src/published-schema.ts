import { z } from "zod";

/** A JSON Schema node as `z.toJSONSchema` writes it. */
type Node = { [key: string]: unknown };

/**
 * The JSON Schema a tool publishes in `tools/list` for one of its zod schemas. The zod schema stays
 * what the server validates with (the SDK parses arguments and `structuredContent` with it), so
 * what is published only has to be true, and small: `tools/list` goes into the model's context.
 *
 * Both: no `$schema` (2025-11-25: a schema without one is JSON Schema 2020-12, the dialect written
 * here), no `pattern` beside a `format` (zod writes its whole date-time regex, 317 characters, beside
 * `format: "date-time"`, 16 times in the list; the format says it, and the official client's Ajv
 * checks formats).
 *
 * Output only (what the model reads, never writes; it is less than what zod checks, so every
 * answer the server lets through still validates where the client checks it):
 * - no validation-only keywords (`pattern`, lengths, bounds, `default`, `additionalProperties: false`);
 * - a union of objects as one object (the offer's `pricing`, `legal_terms`, `validity`: their
 *   variants are in create_private_offer's arguments);
 * - the fields of the answer and of its lists' items; any other object as `{type: "object"}` (the
 *   onboarding bundle's CloudFormation, Terraform and console parts, a diagnosis's fixes);
 * - `required` of the answer only (which of its fields are always there).
 */
export function publishedSchema(
  schema: z.ZodType,
  io: "input" | "output",
  outlined: Readonly<Record<string, string | undefined>> = {},
): Node {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io }) as Node;
  delete json.$schema;
  if (io === "output") return summary(json, "answer");
  const properties = Object.entries((json.properties ?? {}) as Record<string, Node>).map(([key, field]) => {
    const pointer = outlined[key];
    return [key, pointer === undefined ? argument(field) : { type: jsonTypes(field), description: pointer }];
  });
  return { ...json, properties: Object.fromEntries(properties) };
}

/**
 * One argument's schema. `additionalProperties: false` stays at the root only (unknown
 * arguments are refused); nested objects of the offer's terms repeated it a dozen times per
 * tool, and the server refuses unknown nested fields all the same, naming them.
 */
const argument = (field: Node): Node =>
  pruned(
    field,
    (key, value, node) =>
      (key === "pattern" && typeof node.format === "string") || (key === "additionalProperties" && value === false),
  );

/** The JSON type(s) of a schema, its union's variants' included (`["array", "null"]`). */
function jsonTypes(node: Node): string | string[] {
  const variants = (node.oneOf ?? node.anyOf) as Node[] | undefined;
  const types = [...new Set((variants ?? [node]).flatMap((v) => v.type as string | string[]))];
  return types.length === 1 ? types[0]! : types;
}

const VALIDATION_ONLY = [
  "pattern",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "default",
];

/** `node` without the keys `drop` picks, at every depth. */
function pruned(node: Node, drop: (key: string, value: unknown, node: Node) => boolean): Node {
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (!drop(key, value, node)) out[key] = deep(value, (n) => pruned(n, drop));
  }
  return out;
}

/**
 * `node` for the output, `at` where it is: the answer itself, one of its fields, an item of one
 * of its lists, or deeper. The answer and its lists' items keep their fields; any other object
 * is `{type: "object"}`.
 */
type At = "answer" | "field" | "item" | "deeper";
function summary(node: Node, at: At): Node {
  const variants = (node.oneOf ?? node.anyOf) as Node[] | undefined;
  if (variants?.every((v) => v.type === "object")) return described(node, { type: "object" });
  const keep = at === "answer" || at === "item";
  if (node.type === "object" && node.properties && !keep) return described(node, { type: "object" });
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (VALIDATION_ONLY.includes(key) || (key === "additionalProperties" && value === false)) continue;
    if (key === "required" && at !== "answer") continue;
    if (key === "properties") {
      const fieldsAt = at === "answer" ? "field" : "deeper";
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, Node>).map(([k, v]) => [k, summary(v, fieldsAt)]),
      );
    } else if (key === "items") out[key] = summary(value as Node, at === "field" ? "item" : "deeper");
    else out[key] = deep(value, (n) => summary(n, at));
  }
  return oneOfAKind(out);
}

/**
 * A union whose variants say the same once summarized (the two variants of seller currencies'
 * `currencies`), or that are `true` and `false` (connector status's `connected`), as one schema.
 */
function oneOfAKind(node: Node): Node {
  const union = node.anyOf ? "anyOf" : node.oneOf ? "oneOf" : undefined;
  if (!union) return node;
  const { [union]: variants, ...rest } = node as Node & Record<string, Node[]>;
  const distinct = [...new Map(variants!.map((v) => [JSON.stringify(v), v])).values()];
  const booleans = distinct.length === 2 && distinct.every((v) => v.type === "boolean" && typeof v.const === "boolean");
  if (booleans) return { ...rest, type: "boolean" };
  return distinct.length === 1 ? { ...rest, ...distinct[0] } : { ...rest, [union]: distinct };
}

const described = (node: Node, schema: Node): Node =>
  typeof node.description === "string" ? { ...schema, description: node.description } : schema;

function deep(value: unknown, f: (n: Node) => Node): unknown {
  if (Array.isArray(value)) return value.map((v) => deep(v, f));
  if (value !== null && typeof value === "object") return f(value as Node);
  return value;
}
