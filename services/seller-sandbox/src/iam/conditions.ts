import type { PolicyCondition } from "./policy-document.ts";
import { arnMatches, wildcardMatch } from "./wildcard.ts";

/**
 * The request context: condition key (any case) → its values. A single-valued key such as
 * `aws-marketplace:PartyType` has one value; a multivalued one such as
 * `aws-marketplace:AgreementType` may have several; an absent key is simply missing.
 */
export type RequestContext = Readonly<Record<string, readonly string[] | undefined>>;

type Compare = (policyValue: string, requestValue: string) => boolean;

const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));
const date = (s: string) => (/^\d+(\.\d+)?$/.test(s) ? Number(s) * 1000 : Date.parse(s));

// Positive operators; the `Not` forms are their negation. Date and numeric compare the REQUEST
// value against the policy value ("request < policy" for LessThan).
const operators: Record<string, Compare> = {
  stringequals: (p, r) => p === r,
  stringequalsignorecase: (p, r) => p.toLowerCase() === r.toLowerCase(),
  stringlike: (p, r) => wildcardMatch(p, r),
  arnequals: (p, r) => arnMatches(p, r),
  arnlike: (p, r) => arnMatches(p, r),
  numericequals: (p, r) => num(r) === num(p),
  numericlessthan: (p, r) => num(r) < num(p),
  numericlessthanequals: (p, r) => num(r) <= num(p),
  numericgreaterthan: (p, r) => num(r) > num(p),
  numericgreaterthanequals: (p, r) => num(r) >= num(p),
  dateequals: (p, r) => date(r) === date(p),
  datelessthan: (p, r) => date(r) < date(p),
  datelessthanequals: (p, r) => date(r) <= date(p),
  dategreaterthan: (p, r) => date(r) > date(p),
  dategreaterthanequals: (p, r) => date(r) >= date(p),
  bool: (p, r) => p.toLowerCase() === r.toLowerCase(),
  binaryequals: (p, r) => p === r,
  ipaddress: () => false,
};

const negated: Record<string, string> = {
  stringnotequals: "stringequals",
  stringnotequalsignorecase: "stringequalsignorecase",
  stringnotlike: "stringlike",
  arnnotequals: "arnequals",
  arnnotlike: "arnlike",
  numericnotequals: "numericequals",
  datenotequals: "dateequals",
  notipaddress: "ipaddress",
};

export class UnsupportedConditionOperator extends Error {
  override name = "UnsupportedConditionOperator";
}

function lookup(context: RequestContext, key: string): readonly string[] | undefined {
  // Own keys only: a policy key named `constructor` must read as absent, not as Object.
  if (Object.hasOwn(context, key)) return context[key];
  const lower = key.toLowerCase();
  for (const k of Object.keys(context)) if (k.toLowerCase() === lower) return context[k];
  return undefined;
}

/**
 * Evaluates one operator block for one key, as IAM does: the policy's values are ORed; an absent
 * key fails a positive operator and passes a negated one; `...IfExists` passes when absent;
 * `ForAllValues:` passes vacuously when absent (the documented trap) and otherwise needs every
 * request value to match; `ForAnyValue:` needs one. A plain operator on a multivalued key behaves
 * like `ForAnyValue:`.
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-single-vs-multi-valued-context-keys.html
 */
function evaluateKey(
  rawOperator: string,
  key: string,
  policyValues: readonly string[],
  context: RequestContext,
): boolean {
  let op = rawOperator.toLowerCase();
  let set: "all" | "any" | undefined;
  if (op.startsWith("forallvalues:")) [set, op] = ["all", op.slice(13)];
  else if (op.startsWith("foranyvalue:")) [set, op] = ["any", op.slice(12)];
  const ifExists = op.endsWith("ifexists");
  if (ifExists) op = op.slice(0, -8);
  const values = lookup(context, key);

  if (op === "null") {
    const wantAbsent = (policyValues[0] ?? "").toLowerCase() === "true";
    return wantAbsent === (values === undefined || values.length === 0);
  }
  const base = (Object.hasOwn(negated, op) && negated[op]) || op;
  const compare = Object.hasOwn(operators, base) ? operators[base] : undefined;
  if (!compare) throw new UnsupportedConditionOperator(rawOperator);
  const isNegated = base !== op;
  const matchOne = (r: string) => {
    const hit = policyValues.some((p) => compare(p, r));
    return isNegated ? !hit : hit;
  };

  if (values === undefined || values.length === 0) {
    if (set === "all") return true;
    if (set === "any") return false;
    return ifExists || isNegated;
  }
  if (set === "all") return values.every(matchOne);
  return isNegated && !set ? values.every(matchOne) : values.some(matchOne);
}

/** All operator blocks and all keys in them must hold (AND); values within a key are ORed. */
export function conditionHolds(condition: PolicyCondition | undefined, context: RequestContext): boolean {
  if (!condition) return true;
  for (const [operator, keys] of Object.entries(condition)) {
    for (const [key, policyValues] of Object.entries(keys)) {
      if (!evaluateKey(operator, key, policyValues, context)) return false;
    }
  }
  return true;
}
