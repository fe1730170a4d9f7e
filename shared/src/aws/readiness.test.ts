import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { createAwsClients } from "./clients.ts";
import { awsReadiness } from "./readiness.ts";

describe("awsReadiness", () => {
  // Skipped without AWS_ENDPOINT_URL (the global set-up sets it; the guard is for running the file without it).
  it.skipIf(!process.env.AWS_ENDPOINT_URL)("passes against the local emulator", async () => {
    // A generous deadline: moto on a busy test machine can take seconds.
    await awsReadiness(createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }), 15_000)();
  });

  it("fails when AWS cannot be reached", async () => {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    const aws = createAwsClients({
      endpoint: "http://127.0.0.1:9",
      credentials: { accessKeyId: "x", secretAccessKey: "y" },
    });
    await assert.rejects(awsReadiness(aws, 1000)());
  });
});
