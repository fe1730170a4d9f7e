/**
 * Requests no Request object can be built from, as raw bytes for `rawRequest`: each must be
 * answered 400 problem+json (shared/src/http/client-errors.ts), never with Node's or node-server's
 * empty 400. `authorization` is added where the request is otherwise well formed, so a route that
 * needs a credential would have one.
 *
 * @example
 * for (const [what, bytes] of unparseableRequests("GET", "/v1/tenants")) await rawRequest(url, bytes);
 */
export function unparseableRequests(method: string, path: string, authorization?: string): [string, string][] {
  const auth = authorization ? `authorization: ${authorization}\r\n` : "";
  const tail = `${auth}\r\n`;
  return [
    ["an asterisk target", `${method} * HTTP/1.1\r\nhost: gw\r\n${tail}`],
    ["a backslash in the path", `${method} ${path}\\..\\x HTTP/1.1\r\nhost: gw\r\n${tail}`],
    ["a path starting with a backslash", `${method} \\${path.slice(1)} HTTP/1.1\r\nhost: gw\r\n${tail}`],
    ["a target without a leading slash", `${method} ${path.slice(1)} HTTP/1.1\r\nhost: gw\r\n${tail}`],
    ["HTTP/1.0 without Host", `${method} ${path} HTTP/1.0\r\n${tail}`],
    ["HTTP/1.1 without Host", `${method} ${path} HTTP/1.1\r\n${tail}`],
    ["a malformed Host", `${method} ${path} HTTP/1.1\r\nhost: a b@c\r\n${tail}`],
    ["a garbage request line", `NOT AN HTTP REQUEST\r\n${tail}`],
    ["a TLS ClientHello on the plain port", "\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03\r\n\r\n"],
    ["an unknown HTTP version", `${method} ${path} HTTP/7.3\r\nhost: gw\r\n${tail}`],
  ];
}
