/**
 * IAM wildcard matching: `*` is any run of characters, `?` is exactly one; everything else is
 * literal. Compiled patterns are cached because the same few policy strings are matched on every
 * request.
 */
const cache = new Map<string, RegExp>();

function compile(pattern: string, ignoreCase: boolean): RegExp {
  const key = (ignoreCase ? "i:" : "s:") + pattern;
  let re = cache.get(key);
  if (!re) {
    const body = pattern
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".");
    re = new RegExp(`^${body}$`, ignoreCase ? "is" : "s");
    if (cache.size > 10_000) cache.clear();
    cache.set(key, re);
  }
  return re;
}

/** `StringLike`-style match of one value against one pattern. */
export function wildcardMatch(pattern: string, value: string, ignoreCase = false): boolean {
  if (pattern === "*") return true;
  if (!pattern.includes("*") && !pattern.includes("?")) {
    return ignoreCase ? pattern.toLowerCase() === value.toLowerCase() : pattern === value;
  }
  return compile(pattern, ignoreCase).test(value);
}

/** Action names are case-insensitive in IAM (`aws-marketplace:listentities` matches). */
export function actionMatches(pattern: string, action: string): boolean {
  return wildcardMatch(pattern, action, true);
}

/**
 * `ArnLike` / Resource matching: the first five colon-separated parts are matched one by one (a
 * wildcard never spans a colon there), the sixth (the resource part) is matched whole, colons and
 * all. https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html#Conditions_ARN
 */
export function arnMatches(pattern: string, arn: string): boolean {
  if (pattern === "*") return true;
  const p = splitArn(pattern);
  const a = splitArn(arn);
  if (!p || !a) return wildcardMatch(pattern, arn);
  for (let i = 0; i < 6; i++) {
    if (!wildcardMatch(p[i] as string, a[i] as string)) return false;
  }
  return true;
}

function splitArn(value: string): string[] | undefined {
  const parts = value.split(":");
  if (parts.length < 6 || parts[0] !== "arn") return undefined;
  return [...parts.slice(0, 5), parts.slice(5).join(":")];
}
