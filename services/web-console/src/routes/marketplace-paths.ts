/** The API paths of a tenant's marketplace integration (connector-svc and offers-svc routes). */
export const connectorPath = (tenantId: string, rest = "") => `/v1/tenants/${tenantId}/integrations/marketplace${rest}`;

/** The console's own pages of a tenant. */
export const pagePath = (tenantId: string, rest = "") => `/app/t/${tenantId}${rest}`;

/** The three onboarding paths of interface.md §5.3, as the seller names the one they used. */
export const ONBOARDING_PATHS = {
  cloudformation: "AWS CloudFormation (quick-create)",
  terraform: "Terraform",
  console: "The AWS console, by hand",
} as const;
export type OnboardingPath = keyof typeof ONBOARDING_PATHS;
export const onboardingPathOf = (value: unknown): OnboardingPath =>
  typeof value === "string" && Object.hasOwn(ONBOARDING_PATHS, value) ? (value as OnboardingPath) : "cloudformation";
