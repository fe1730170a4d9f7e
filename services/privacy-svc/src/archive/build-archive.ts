import { Readable } from "node:stream";
import { Upload } from "@aws-sdk/lib-storage";
import {
  ARCHIVE_SCHEMA_VERSION,
  type ArchiveManifest,
  type CategorySpec,
  type PersonalDataCategory,
  personalDataCategories,
} from "@flowstate/contracts/internal/personal-data";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { JobRow } from "../db/jobs.ts";
import type { PrivacyDeps } from "../deps.ts";
import { exportHistory } from "../gathering/export-history.ts";
import { remoteCategory } from "../gathering/participant-client.ts";
import { categoryDocument } from "./category-document.ts";
import { type ZipEntry, zipStream } from "./zip-writer.ts";

/** S3's smallest multipart part: the only buffer the upload holds (one part, one in flight). */
const PART_SIZE = 5 * 1024 * 1024;

export const archiveKey = (jobId: string) => `${jobId}.zip`;

/**
 * Gathers every category of the registry from its owner and streams the ZIP straight into the
 * exports bucket with SSE-KMS: categories are pulled one after the other as the ZIP needs them,
 * the manifest (with the counts) comes last. Memory stays at about one upload part whatever the
 * archive's size. Any failure (a participant down, a record outside its schema, S3) rejects, and
 * the upload is aborted: no object, or only a complete one, is ever left under the key.
 */
export async function buildArchive(
  deps: PrivacyDeps,
  em: EntityManager,
  job: Pick<JobRow, "id" | "sub">,
  signal: AbortSignal,
): Promise<{ key: string; counts: Record<PersonalDataCategory, number> }> {
  const counts = {} as Record<PersonalDataCategory, number>;
  const generatedAt = deps.clock();
  const names = Object.keys(personalDataCategories) as PersonalDataCategory[];
  const source = (name: PersonalDataCategory, spec: CategorySpec) =>
    spec.service === "privacy-svc"
      ? exportHistory(em, deps.schema, job.sub, job.id)
      : remoteCategory(deps, spec.service, job.sub, name, signal);
  const entries: ZipEntry[] = names.map((name) => {
    const spec: CategorySpec = personalDataCategories[name];
    return {
      name: spec.file,
      content: () =>
        categoryDocument(name, spec, source(name, spec), (n) => {
          counts[name] = n;
        }),
    };
  });
  entries.push({
    name: "manifest.json",
    content: async function* () {
      const manifest: ArchiveManifest = {
        schema_version: ARCHIVE_SCHEMA_VERSION,
        sub: job.sub,
        job_id: job.id,
        generated_at: generatedAt.toISOString(),
        categories: names.map((name) => ({
          name,
          file: personalDataCategories[name].file,
          description: personalDataCategories[name].description,
          count: counts[name] ?? 0,
        })),
      };
      yield `${JSON.stringify(manifest, null, 2)}\n`;
    },
  });

  const key = archiveKey(job.id);
  const upload = new Upload({
    client: deps.s3,
    params: {
      Bucket: deps.exports.bucket,
      Key: key,
      Body: Readable.from(zipStream(entries, generatedAt)),
      ContentType: "application/zip",
      ServerSideEncryption: "aws:kms",
      SSEKMSKeyId: deps.exports.kmsKeyId,
    },
    partSize: PART_SIZE,
    queueSize: 1,
    leavePartsOnError: false,
  });
  const abort = () => void upload.abort().catch(() => {});
  signal.addEventListener("abort", abort, { once: true });
  try {
    await upload.done();
  } finally {
    signal.removeEventListener("abort", abort);
  }
  return { key, counts };
}
