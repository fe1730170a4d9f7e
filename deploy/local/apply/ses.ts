import { CreateEmailIdentityCommand, GetEmailIdentityCommand } from "@aws-sdk/client-sesv2";
import { type ApplyContext, isAwsError } from "./common.ts";

/**
 * Ensures the SES v2 sender identity. On real AWS a new e-mail identity stays unverified until
 * someone follows the link SES mails to it (or the domain is verified with DKIM records); the
 * emulators verify it at once.
 */
export async function ensureEmailIdentity(ctx: ApplyContext, identity: string): Promise<void> {
  const ses = ctx.aws.data("sesv2");
  try {
    await ses.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
    return;
  } catch (err) {
    if (!isAwsError(err, ["NotFoundException"])) throw err;
  }
  try {
    await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: identity }));
    ctx.changes.push(`created SES identity ${identity}`);
  } catch (err) {
    if (!isAwsError(err, ["AlreadyExistsException"])) throw err;
  }
}
