import { ApiError } from "../http/api-error.ts";

/** The only catalog there is: every Catalog API request names it. */
export const CATALOG = "AWSMarketplace";

export function requireCatalog(value: string | null | undefined): void {
  if (value !== CATALOG) {
    throw new ApiError(422, "ValidationException", `Catalog '${value ?? ""}' is not supported. Use ${CATALOG}.`);
  }
}
