import { booleanVar, serviceConfigSchema } from "@flowstate/shared/config/base";
import { z } from "zod";
import { DEFAULT_PRINCIPAL_KEYS } from "./credentials/principals.ts";

/**
 * The sandbox's environment. AWS_ENDPOINT_URL is required: roles and policies are read from the
 * emulator's IAM. The principal keys default to the public local values of DEFAULT_PRINCIPAL_KEYS.
 */
export const SandboxConfig = serviceConfigSchema({
  service: "seller-sandbox",
  extra: {
    AWS_ENDPOINT_URL: z.url({ protocol: /^https?$/ }),
    AWS_ACCESS_KEY_ID: z.string().min(1).default("testing"),
    AWS_SECRET_ACCESS_KEY: z.string().min(1).default("testing"),
    FLOWSTATE_ACCOUNT_ID: z
      .string()
      .regex(/^\d{12}$/)
      .default("123456789012"),
    SANDBOX_BACKEND_ACCESS_KEY_ID: z.string().min(16).default(DEFAULT_PRINCIPAL_KEYS.backend.accessKeyId),
    SANDBOX_BACKEND_SECRET_ACCESS_KEY: z.string().min(16).default(DEFAULT_PRINCIPAL_KEYS.backend.secretAccessKey),
    SANDBOX_MCP_EXECUTION_ACCESS_KEY_ID: z
      .string()
      .min(16)
      .default(DEFAULT_PRINCIPAL_KEYS["mcp-execution"].accessKeyId),
    SANDBOX_MCP_EXECUTION_SECRET_ACCESS_KEY: z
      .string()
      .min(16)
      .default(DEFAULT_PRINCIPAL_KEYS["mcp-execution"].secretAccessKey),
    SANDBOX_VERIFY_SIGNATURES: booleanVar(true),
    /** How long role policies are cached; a stack update is seen after at most this long. */
    SANDBOX_POLICY_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(500),
    /** Time a change set spends in PREPARING, then in APPLYING (per account changeable at run time). */
    SANDBOX_CHANGE_SET_STEP_MS: z.coerce.number().int().min(0).max(600_000).default(500),
    /**
     * Lets callers that are not on this host's loopback use the control plane (`/_sandbox/*`) with
     * `Authorization: Bearer <token>`; unset, only loopback callers may (control/access.ts).
     */
    SANDBOX_CONTROL_TOKEN: z.string().min(16).optional(),
  },
});
export type SandboxConfig = z.output<typeof SandboxConfig>;
