const NS = "https://sts.amazonaws.com/doc/2011-06-15/";

export function xmlEscape(value: string): string {
  return value.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `<Name>value</Name>` for each defined entry, values escaped. */
export function elements(fields: Record<string, string | number | undefined>): string {
  let out = "";
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out += `<${k}>${xmlEscape(String(v))}</${k}>`;
  return out;
}

/** The awsQuery success envelope: `<XResponse><XResult>...</XResult><ResponseMetadata>`. */
export function queryResponse(action: string, result: string, requestId: string): string {
  return `<${action}Response xmlns="${NS}"><${action}Result>${result}</${action}Result><ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></${action}Response>`;
}

/**
 * The awsQuery error envelope; the SDK takes `Error.Code` as the exception name, so
 * `<Code>AccessDenied</Code>` surfaces as `err.name === "AccessDenied"`.
 */
export function queryError(
  code: string,
  message: string,
  requestId: string,
  type: "Sender" | "Receiver" = "Sender",
): string {
  return `<ErrorResponse xmlns="${NS}"><Error><Type>${type}</Type><Code>${xmlEscape(code)}</Code><Message>${xmlEscape(message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`;
}
