import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The suite-wide "no secret in any log line" check. Every process started under the test runner
 * tees its JSON log lines into FLOWSTATE_LOG_DIR, and every test that mints a password, token or
 * API key records it in secrets.txt. After the run we look for each recorded secret, and for
 * anything shaped like a JWT or an e-mail address, in every log line. Findings name the file and line, never the secret.
 */
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/;
/**
 * An e-mail address: no log line carries one (personal data; STYLE: "No secret/token/e-mail in
 * logs"). Errors written by others (SES names the addresses it refused) are censored by the
 * logger's error serialiser (shared/src/log/redaction.ts); this finds what slipped past it.
 */
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;

export interface LogScanResult {
  files: number;
  lines: number;
  secrets: number;
  findings: string[];
}

export function scanLogs(dir: string): LogScanResult {
  const names = readdirSync(dir);
  const secrets = names.includes("secrets.txt")
    ? [...new Set(readFileSync(join(dir, "secrets.txt"), "utf8").split("\n"))].filter((s) => s.length >= 8)
    : [];
  const findings: string[] = [];
  let files = 0;
  let lines = 0;
  for (const name of names.filter((n) => n.endsWith(".jsonl"))) {
    files++;
    const content = readFileSync(join(dir, name), "utf8").split("\n");
    content.forEach((line, i) => {
      if (!line) return;
      lines++;
      if (JWT.test(line)) findings.push(`${name}:${i + 1}: a JWT-shaped string`);
      if (EMAIL.test(line)) findings.push(`${name}:${i + 1}: an e-mail address`);
      for (const secret of secrets) {
        if (line.includes(secret)) findings.push(`${name}:${i + 1}: a recorded secret (${secret.length} chars)`);
      }
    });
  }
  return { files, lines, secrets: secrets.length, findings };
}

/**
 * The end-of-run check: scans `dir` and returns the one-line summary, or throws naming each finding
 * (the test run's global teardown throws it, which makes vitest exit non-zero).
 */
export function assertLogsClean(dir: string): string {
  const scan = scanLogs(dir);
  const summary = `log scan: ${scan.lines} lines in ${scan.files} files checked for ${scan.secrets} recorded secrets`;
  if (!scan.findings.length) return summary;
  const error = new Error(
    `${summary}\nlog scan FAILED: secrets in logs (${dir}):\n  ${scan.findings.slice(0, 50).join("\n  ")}`,
  );
  error.stack = error.message; // the findings are the story; a stack into the teardown is noise
  throw error;
}
