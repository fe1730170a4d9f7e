import { App, type Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { buildApp, type FlowstateApp } from "./app.ts";
import { type DeploySettings, exampleSettings } from "./settings.ts";

export interface Synthesized {
  built: FlowstateApp;
  settings: DeploySettings;
  templates: Map<Stack, Template>;
  template: (stack: Stack) => Template;
}

/**
 * Builds and synthesizes the whole app once (a test file calls this in its module scope; CDK synth
 * takes seconds). Asset staging is off: the Dockerfile asset is hashed, not copied. CDK's built-in
 * CloudFormation validation (cfn-lint rules, several seconds) runs only where a test reads its
 * report (`validate: true`, stacks.test.ts).
 */
export function synthesize(options: { validate?: boolean; settings?: Partial<DeploySettings> } = {}): Synthesized {
  const settings = exampleSettings(options.settings);
  const app = new App({
    context: { "aws:cdk:disable-asset-staging": true },
    builtinCloudFormationValidation: options.validate ?? false,
  });
  const built = buildApp(settings, app);
  const templates = new Map(built.stacks.map((s) => [s, Template.fromStack(s)]));
  return { built, settings, templates, template: (s) => templates.get(s)! };
}

/** A synthesized template's JSON: untyped by nature; the tests assert its shape. */
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON has no static type; every use is asserted.
export type CfnJson = any;
