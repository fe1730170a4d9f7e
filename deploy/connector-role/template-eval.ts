import { readFileSync } from "node:fs";
import type { PolicyVersion } from "@flowstate/shared/marketplace/connector-role/policies";
import { parse } from "yaml";
import { TEMPLATE_FILES } from "./cloudformation.ts";

/**
 * The committed CloudFormation template, parsed. The templates use only long-form intrinsics
 * (`Fn::Sub`, not `!Sub`), so a plain YAML parser reads them without custom tags.
 */
// biome-ignore lint/suspicious/noExplicitAny: a parsed template is untyped JSON that tests walk freely
export function readTemplate(version: PolicyVersion): any {
  return parse(readFileSync(new URL(TEMPLATE_FILES[version], import.meta.url), "utf8"));
}

export interface StackContext {
  /** Parameter values as CloudFormation resolves them (a CommaDelimitedList is an array). */
  parameters: Record<string, unknown>;
  partition: string;
  accountId: string;
  region?: string;
}

/**
 * Resolves the intrinsics the connector templates use (`Ref` to a parameter, `Fn::Sub` with
 * pseudo parameters and parameters) as CloudFormation would, so a template's documents can be
 * compared with the Terraform and console ones without deploying. Anything else throws.
 *
 * @example
 * resolveIntrinsics(template.Resources.MarketplaceCatalogAccessPolicy.Properties.PolicyDocument, { parameters: {}, partition: "aws", accountId });
 */
export function resolveIntrinsics(node: unknown, ctx: StackContext): unknown {
  if (Array.isArray(node)) return node.map((item) => resolveIntrinsics(item, ctx));
  if (!node || typeof node !== "object") return node;
  const entries = Object.entries(node);
  const [key, value] = entries[0] ?? [];
  if (entries.length === 1 && key === "Ref") return parameter(String(value), ctx);
  if (entries.length === 1 && key === "Fn::Sub") {
    if (typeof value !== "string") throw new Error("only the string form of Fn::Sub is supported");
    return value.replace(/\$\{([\w:]+)\}/g, (_, name: string) => String(parameter(name, ctx)));
  }
  if (entries.length === 1 && key?.startsWith("Fn::")) throw new Error(`unsupported intrinsic ${key}`);
  return Object.fromEntries(entries.map(([k, v]) => [k, resolveIntrinsics(v, ctx)]));
}

function parameter(name: string, ctx: StackContext): unknown {
  const pseudo: Record<string, string> = {
    "AWS::Partition": ctx.partition,
    "AWS::AccountId": ctx.accountId,
    "AWS::Region": ctx.region ?? "us-east-1",
  };
  if (name in pseudo) return pseudo[name];
  if (name in ctx.parameters) return ctx.parameters[name];
  throw new Error(`unresolved reference ${name}`);
}
