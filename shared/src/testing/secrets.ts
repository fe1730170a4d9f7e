import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/**
 * Registers a value that must never appear in any log line. When FLOWSTATE_LOG_DIR is set (the
 * test runner sets it), the value is appended to `$FLOWSTATE_LOG_DIR/secrets.txt`, one per line,
 * and the runner fails the run if any `*.jsonl` log contains it. Without the variable it does
 * nothing, so tests call it unconditionally. Returns the value for inline use.
 *
 * Values shorter than 8 characters are refused: they would match innocent log text.
 *
 * @example
 * const password = recordSecret(`pw-${randomUUID()}`);
 * const { access_token } = await signIn(email, password);
 * recordSecret(access_token);
 */
export function recordSecret<T extends string>(value: T, env: NodeJS.ProcessEnv = process.env): T {
  if (value.length < 8) throw new Error("recordSecret: a secret shorter than 8 characters cannot be scanned for");
  if (/[\r\n]/.test(value)) throw new Error("recordSecret: a secret cannot contain a line break (one secret per line)");
  const dir = env.FLOWSTATE_LOG_DIR;
  if (!dir) return value;
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, "secrets.txt"), `${value}\n`);
  return value;
}
