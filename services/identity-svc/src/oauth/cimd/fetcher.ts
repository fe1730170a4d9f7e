import { LruCache } from "@flowstate/shared/cache/lru";
import { ClientMetadataDocument } from "./client-document.ts";
import { CimdError, type FetchLimits, fetchDocument } from "./fetch-document.ts";

export interface CimdOptions {
  /**
   * Addresses a document may be fetched from although they are special-use. Empty in production
   * (OAUTH_CIMD_ALLOWED_ADDRESSES is unset); the tests name their own loopback HTTPS server here,
   * and a test without it shows that loopback is refused.
   */
  allowedAddresses?: readonly string[];
  /** Replaces the trusted CA certificates (PEM); for tests' self-signed server only. */
  ca?: string;
  maxBytes?: number;
  timeoutMs?: number;
  /** Documents kept (least recently used dropped first). */
  cacheMax?: number;
  /** A document's cache lifetime is its Cache-Control max-age, bounded by these (default 5 minutes when absent). */
  minTtlMs?: number;
  maxTtlMs?: number;
}

const DEFAULT_TTL_MS = 5 * 60_000;

/** Cache lifetime from Cache-Control (RFC 9111): no-store/no-cache → not kept; max-age bounded. */
function ttlOf(cacheControl: string | undefined, min: number, max: number): number {
  const value = (cacheControl ?? "").toLowerCase();
  if (/(?:^|,)\s*(?:no-store|no-cache)\b/.test(value)) return 0;
  const m = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/.exec(value);
  const ms = m ? Number(m[1]) * 1000 : DEFAULT_TTL_MS;
  return Math.min(max, Math.max(min, ms));
}

/**
 * Client ID Metadata Documents, fetched (fetch-document.ts), validated and cached. Only valid
 * documents are cached (the draft: "MUST NOT cache error responses or invalid documents"); the
 * cache is per process and bounded. Concurrent requests for one URL share one fetch.
 *
 * @example
 * const doc = await cimd.get("https://client.example/oauth/metadata.json"); // CimdError when refused
 */
export class ClientMetadataFetcher {
  readonly #limits: FetchLimits;
  readonly #minTtl: number;
  readonly #maxTtl: number;
  readonly #cache: LruCache<ClientMetadataDocument>;
  readonly #inFlight = new Map<string, Promise<ClientMetadataDocument>>();

  constructor(options: CimdOptions = {}) {
    this.#limits = {
      allowedAddresses: new Set(options.allowedAddresses ?? []),
      ca: options.ca,
      maxBytes: options.maxBytes ?? 5 * 1024,
      timeoutMs: options.timeoutMs ?? 5_000,
    };
    this.#cache = new LruCache(options.cacheMax ?? 1_000);
    this.#minTtl = options.minTtlMs ?? 60_000;
    this.#maxTtl = options.maxTtlMs ?? 24 * 3600_000;
  }

  async get(clientId: string): Promise<ClientMetadataDocument> {
    const cached = this.#cache.get(clientId);
    if (cached) return cached;
    let pending = this.#inFlight.get(clientId);
    if (!pending) {
      pending = this.#load(clientId).finally(() => this.#inFlight.delete(clientId));
      this.#inFlight.set(clientId, pending);
    }
    return pending;
  }

  async #load(clientId: string): Promise<ClientMetadataDocument> {
    const { body, cacheControl } = await fetchDocument(new URL(clientId), this.#limits);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new CimdError("invalid_json");
    }
    const parsed = ClientMetadataDocument.safeParse(json);
    if (!parsed.success) throw new CimdError("invalid_document");
    // The draft: client_id in the document must equal the URL it was fetched from (simple string comparison).
    if (parsed.data.client_id !== clientId) throw new CimdError("client_id_mismatch");
    const ttl = ttlOf(cacheControl, this.#minTtl, this.#maxTtl);
    if (ttl === 0) return parsed.data;
    this.#cache.set(clientId, parsed.data, Date.now() + ttl);
    return parsed.data;
  }
}
