import { deleteMyAccount } from "./delete-my-account.ts";
import type { ToolSpec } from "./tool.ts";

/**
 * Every tool, in name order (tools/list answers in this order; the snapshot test pins it). A tool
 * is added when the service owning its route is in the registry; see README for the plan.
 */
export const tools: readonly ToolSpec[] = ([deleteMyAccount] as ToolSpec[]).sort((a, b) =>
  a.name.localeCompare(b.name),
);
