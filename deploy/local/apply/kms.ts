import {
  CreateAliasCommand,
  CreateKeyCommand,
  DescribeKeyCommand,
  EnableKeyRotationCommand,
  GetKeyRotationStatusCommand,
} from "@aws-sdk/client-kms";
import { type ApplyContext, isAwsError } from "./common.ts";

/**
 * Ensures the symmetric data key behind `alias` exists, with yearly rotation on, and returns its
 * ARN. The alias is the key's identity: a lost alias would mean a second key, so it is only ever
 * created, never moved.
 */
export async function ensureDataKey(ctx: ApplyContext, alias: string): Promise<string> {
  const kms = ctx.aws.data("kms");
  let arn = await describeKey(ctx, alias);
  if (!arn) {
    const created = await kms.send(
      new CreateKeyCommand({
        Description: `Flowstate data key (${alias})`,
        KeyUsage: "ENCRYPT_DECRYPT",
        KeySpec: "SYMMETRIC_DEFAULT",
      }),
    );
    const keyId = created.KeyMetadata!.KeyId!;
    try {
      await kms.send(new CreateAliasCommand({ AliasName: alias, TargetKeyId: keyId }));
      ctx.changes.push(`created KMS key ${alias}`);
      arn = created.KeyMetadata!.Arn!;
    } catch (err) {
      // Another bootstrap won the race; its key is the one behind the alias.
      if (!isAwsError(err, ["AlreadyExistsException"])) throw err;
      arn = (await describeKey(ctx, alias))!;
    }
  }
  const rotation = await kms.send(new GetKeyRotationStatusCommand({ KeyId: arn }));
  if (!rotation.KeyRotationEnabled) {
    await kms.send(new EnableKeyRotationCommand({ KeyId: arn }));
    ctx.changes.push(`enabled rotation of KMS key ${alias}`);
  }
  return arn;
}

async function describeKey(ctx: ApplyContext, alias: string): Promise<string | undefined> {
  try {
    const res = await ctx.aws.data("kms").send(new DescribeKeyCommand({ KeyId: alias }));
    return res.KeyMetadata?.Arn;
  } catch (err) {
    if (isAwsError(err, ["NotFoundException"])) return undefined;
    throw err;
  }
}
