import {
  ACCOUNT_PLACEHOLDER,
  agreementReadStatement,
  entityArnPattern,
  permissionPolicy,
  policyJson,
  trustPolicyDocument,
} from "@flowstate/shared/marketplace/connector-role/policies";

export const CONSOLE_GUIDE_FILE = "console.md";

/** What the console guide shows the seller to paste; also what the onboarding bundle offers. */
export function consolePolicyJson(): string {
  return policyJson(permissionPolicy({ partition: "aws", accountId: ACCOUNT_PLACEHOLDER }));
}

/**
 * Every JSON block of `console.md`, keyed by the `<!-- policy:KEY -->` marker that precedes it.
 * The guide's prose is hand-written; these blocks are not (see {@link syncConsoleGuide}).
 */
export function consoleBlocks(): Record<string, string> {
  return {
    "permission-current": consolePolicyJson(),
    trust: policyJson(
      trustPolicyDocument(["<FLOWSTATE_BACKEND_ROLE_ARN>", "<FLOWSTATE_MCP_EXECUTION_ROLE_ARN>"], "<EXTERNAL_ID>"),
    ),
    "migration-seller-resource": policyJson(entityArnPattern("aws", ACCOUNT_PLACEHOLDER, "Seller")),
    "migration-agreement-statement": policyJson(agreementReadStatement()),
    "permission-legacy": policyJson(
      permissionPolicy({ partition: "aws", accountId: ACCOUNT_PLACEHOLDER, version: "legacy" }),
    ),
  };
}

// A block's body never contains a fence, so an empty or stale block cannot swallow the next one.
const BLOCK = /<!-- policy:([\w-]+) -->\n```json\n((?:(?!```)[\s\S])*)```/g;

/** The keys of the marked blocks in a guide, in order (duplicates kept, so a test can see them). */
export function markedBlocks(guide: string): { key: string; json: string }[] {
  return [...guide.matchAll(BLOCK)].map((m) => ({ key: m[1]!, json: m[2]!.replace(/\n$/, "") }));
}

/** Rewrites each marked block of the guide with its rendered JSON; unknown markers throw. */
export function syncConsoleGuide(guide: string): string {
  const blocks = consoleBlocks();
  return guide.replace(BLOCK, (_, key: string) => {
    const json = blocks[key];
    if (json === undefined) throw new Error(`console.md has an unknown block marker policy:${key}`);
    return `<!-- policy:${key} -->\n\`\`\`json\n${json}\n\`\`\``;
  });
}
