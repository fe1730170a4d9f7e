import { CloudFormationClient, CreateStackCommand, DescribeStacksCommand } from "@aws-sdk/client-cloudformation";
import { KMSClient, ListAliasesCommand, PutKeyPolicyCommand } from "@aws-sdk/client-kms";
import { DATA_REGION } from "@flowstate/shared/aws/clients";
import { defineStack } from "../local/definition.ts";
import type { Synthesized } from "./synth.ts";

/**
 * Deploys the synthesized storage and messaging stacks into moto's CloudFormation (tests only: the
 * stacks the local bootstrap's definition also renders, so the system can run on what the CDK made).
 * Throws unless every stack ends CREATE_COMPLETE. Returns the data key's id.
 */
export async function deployDataStacksIntoMoto(synth: Synthesized, endpoint: string): Promise<{ keyId: string }> {
  const { built, settings, template } = synth;
  const credentials = { accessKeyId: "testing", secretAccessKey: "testing" };
  const cfn = new CloudFormationClient({ region: DATA_REGION, endpoint, credentials });
  for (const stack of [built.storage, built.messaging]) {
    // The CDK bootstrap's version check reads an SSM parameter moto does not have.
    const { Parameters: _, Rules: __, ...body } = template(stack).toJSON();
    await cfn.send(new CreateStackCommand({ StackName: stack.stackName, TemplateBody: JSON.stringify(body) }));
    const status = (await cfn.send(new DescribeStacksCommand({ StackName: stack.stackName }))).Stacks?.[0]?.StackStatus;
    if (status !== "CREATE_COMPLETE") throw new Error(`${stack.stackName} ended ${status} in moto`);
  }
  // moto 5.2 keeps a CloudFormation key's policy as an object and then fails every DescribeKey on
  // it (json.loads of a dict); storing a policy through the API repairs the emulator, not our key.
  const kms = new KMSClient({ region: DATA_REGION, endpoint, credentials });
  const { prefix, stage, account: accountId, mailFrom } = settings;
  const alias = defineStack({ prefix, stage, accountId, mailFrom }).keyAlias;
  const keyId = (await kms.send(new ListAliasesCommand({}))).Aliases?.find((a) => a.AliasName === alias)?.TargetKeyId;
  if (!keyId) throw new Error(`CloudFormation made no ${alias}`);
  const root = {
    Effect: "Allow",
    Principal: { AWS: `arn:aws:iam::${settings.account}:root` },
    Action: "kms:*",
    Resource: "*",
  };
  const policy = JSON.stringify({ Version: "2012-10-17", Statement: [root] });
  await kms.send(new PutKeyPolicyCommand({ KeyId: keyId, PolicyName: "default", Policy: policy }));
  return { keyId };
}
