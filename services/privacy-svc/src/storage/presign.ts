import { randomBytes } from "node:crypto";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { PrivacyDeps } from "../deps.ts";

/**
 * A presigned GET of one archive, valid `DOWNLOAD_URL_TTL_SECONDS`. Signed at the real time: S3
 * checks the signature against its own clock. The download is named after the day of the request,
 * never after the job or the user.
 *
 * SigV4 presigning is deterministic within a second, so two polls in the same second would get
 * the same URL; a random `nonce` query parameter, added before signing (so it is covered by the
 * signature; S3 ignores parameters it does not know), makes every URL new.
 */
export async function presignDownload(
  deps: PrivacyDeps,
  key: string,
  requestedAt: Date,
): Promise<{ url: string; expiresAt: Date }> {
  const ttl = deps.limits.downloadUrlTtlSeconds;
  const day = requestedAt.toISOString().slice(0, 10);
  const command = new GetObjectCommand({
    Bucket: deps.exports.bucket,
    Key: key,
    ResponseContentDisposition: `attachment; filename="flowstate-personal-data-${day}.zip"`,
    ResponseContentType: "application/zip",
  });
  command.middlewareStack.add(
    (next) => (args) => {
      const request = args.request as { query?: Record<string, string> };
      request.query = { ...request.query, nonce: randomBytes(12).toString("base64url") };
      return next(args);
    },
    { step: "build", name: "downloadNonce" },
  );
  const url = await getSignedUrl(deps.s3, command, { expiresIn: ttl });
  return { url, expiresAt: new Date(Date.now() + ttl * 1000) };
}
