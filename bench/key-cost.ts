/**
 * What verifying one assertion costs per request (ADR 0014): the v4 HMAC check against a pair key
 * and an Ed25519 signature check over the same signed text, uncached. Run alone:
 * `node_modules/.bin/node bench/key-cost.ts` (single-threaded; numbers per operation).
 */
import { generateKeyPairSync, sign, verify } from "node:crypto";
import { bodyless, encodePayload } from "@flowstate/shared/auth/identity-assertion";
import { checkKeyedHeader, signKeyedPayload } from "@flowstate/shared/auth/keyed-assertion";
import { deriveKey } from "@flowstate/shared/auth/keyring";

const N = 50_000;
const binding = bodyless("GET", "/v1/tenants/tnt_0123456789abcdefghij/offers?limit=50");
const payload = encodePayload({
  identity: { kind: "user", sub: "usr_0123456789ab", sid: "ses_0123456789ab" },
  tenant: { tenant_id: "tnt_0123456789abcdefghij", role: "owner" },
  channel: "rest",
});
const key = deriveKey("bench-master", "gateway--offers-svc", 1);
const previous = deriveKey("bench-master", "gateway--offers-svc", 2);

const time = (label: string, run: () => void) => {
  for (let i = 0; i < 2_000; i++) run();
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) run();
  const us = Number(process.hrtime.bigint() - start) / 1_000 / N;
  console.log(`${label.padEnd(52)} ${us.toFixed(2)} µs`);
};

const header = signKeyedPayload(key, "gateway", binding, payload);
const now = Date.now();
time("HMAC v4 sign", () => signKeyedPayload(key, "gateway", binding, payload, now));
time("HMAC v4 check (current key)", () => checkKeyedHeader([key], binding, header, now));
const old = signKeyedPayload(previous, "gateway", binding, payload, now);
time("HMAC v4 check (previous key, rotation window)", () => checkKeyedHeader([key, previous], binding, old, now));

const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const text = Buffer.from(`v4\ngateway\n${now}\nGET\n${binding.target}\n${binding.bodySha256}\n${payload}`);
const signature = sign(null, text, privateKey);
time("Ed25519 sign", () => sign(null, text, privateKey));
time("Ed25519 verify", () => verify(null, text, publicKey, signature));
