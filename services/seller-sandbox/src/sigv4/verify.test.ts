import assert from "node:assert/strict";
import { SignatureV4 } from "@smithy/signature-v4";
import { describe, it } from "vitest";
import { Sha256 } from "../testing/signed-fetch.ts";
import { parseAuthorization } from "./parse-authorization.ts";
import { type ReceivedRequest, verifySignature } from "./verify.ts";

// The SDK's own signer signs; the sandbox's verifier must agree with it byte for byte.
const credentials = { accessKeyId: "AKIAFLOWSTATEBACKEND", secretAccessKey: "s3cr3t" };

async function signed(
  method: string,
  path: string,
  query: Record<string, string>,
  body: string,
  headers: Record<string, string> = {},
) {
  const signer = new SignatureV4({ credentials, region: "us-east-1", service: "aws-marketplace", sha256: Sha256 });
  const req = await signer.sign({
    method,
    protocol: "http:",
    hostname: "127.0.0.1",
    port: 8090,
    path,
    query,
    headers: { host: "127.0.0.1:8090", "content-type": "application/json", ...headers },
    body,
  });
  const rawQuery = Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
  const lower = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const received: ReceivedRequest = {
    method,
    rawPath: path,
    rawQuery,
    header: (n) => lower[n],
    body: new TextEncoder().encode(body),
  };
  return { received, auth: parseAuthorization(lower["authorization"])! };
}

describe("verifySignature", () => {
  it("accepts a POST with a JSON body signed by the SDK's signer", async () => {
    const { received, auth } = await signed("POST", "/ListEntities", {}, '{"Catalog":"AWSMarketplace"}');
    assert.equal(auth.accessKeyId, credentials.accessKeyId);
    assert.equal(verifySignature(received, auth, credentials.secretAccessKey), true);
  });

  it("accepts a GET whose query needs encoding", async () => {
    const { received, auth } = await signed(
      "GET",
      "/DescribeEntity",
      { entityId: "offer-a b+c/*", catalog: "AWSMarketplace" },
      "",
    );
    assert.equal(verifySignature(received, auth, credentials.secretAccessKey), true);
  });

  it("refuses the wrong secret", async () => {
    const { received, auth } = await signed("POST", "/ListEntities", {}, "{}");
    assert.equal(verifySignature(received, auth, "other"), false);
  });

  it("refuses a tampered body", async () => {
    const { received, auth } = await signed("POST", "/ListEntities", {}, '{"MaxResults":1}');
    assert.equal(
      verifySignature(
        { ...received, body: new TextEncoder().encode('{"MaxResults":2}') },
        auth,
        credentials.secretAccessKey,
      ),
      false,
    );
  });

  it("refuses when a signed header is missing", async () => {
    const { received, auth } = await signed("POST", "/ListEntities", {}, "{}", { "x-amz-target": "x" });
    assert.equal(
      verifySignature(
        { ...received, header: (n) => (n === "x-amz-target" ? undefined : received.header(n)) },
        auth,
        "s3cr3t",
      ),
      false,
    );
  });
});

describe("parseAuthorization", () => {
  it("returns undefined for a header that is not SigV4", () => {
    assert.equal(parseAuthorization("Bearer abc"), undefined);
    assert.equal(parseAuthorization(undefined), undefined);
  });
});

describe("parseAuthorization of malformed headers", () => {
  it("refuses a truncated scope, a short signature and an unknown part", () => {
    const ok =
      "AWS4-HMAC-SHA256 Credential=AKIAX/20260101/us-east-1/sts/aws4_request, SignedHeaders=host;x-amz-date, Signature=" +
      "a".repeat(64);
    assert.equal(parseAuthorization(ok)?.service, "sts");
    assert.equal(parseAuthorization(ok.replace("/aws4_request", "")), undefined);
    assert.equal(parseAuthorization(ok.replace("a".repeat(64), "abc")), undefined);
    assert.equal(parseAuthorization(`${ok}, Extra=1`), undefined);
  });
});
