import { validationError } from "./errors.ts";

export interface AssumeRoleParams {
  roleArn: string;
  roleSessionName: string;
  externalId?: string | undefined;
  durationSeconds?: number | undefined;
}

type Rule = {
  field: string;
  value: string | undefined;
  required?: boolean;
  min: number;
  max: number;
  pattern?: RegExp;
};

// Constraints from the STS model (sts_2011-06-15 service-2.json): lengths and patterns.
function check(rule: Rule, problems: string[]): void {
  const { field, value } = rule;
  if (value === undefined) {
    if (rule.required) problems.push(`Value null at '${field}' failed to satisfy constraint: Member must not be null`);
    return;
  }
  if (value.length < rule.min) {
    problems.push(
      `Value '${value}' at '${field}' failed to satisfy constraint: Member must have length greater than or equal to ${rule.min}`,
    );
  } else if (value.length > rule.max) {
    problems.push(
      `Value '${value}' at '${field}' failed to satisfy constraint: Member must have length less than or equal to ${rule.max}`,
    );
  } else if (rule.pattern && !rule.pattern.test(value)) {
    problems.push(
      `Value '${value}' at '${field}' failed to satisfy constraint: Member must satisfy regular expression pattern: ${rule.pattern.source.slice(1, -1)}`,
    );
  }
}

/** Validates AssumeRole's form parameters; throws STS's ValidationError listing every problem. */
export function parseAssumeRoleParams(form: URLSearchParams): AssumeRoleParams {
  const problems: string[] = [];
  const roleArn = form.get("RoleArn") ?? undefined;
  const roleSessionName = form.get("RoleSessionName") ?? undefined;
  const externalId = form.get("ExternalId") ?? undefined;
  const rawDuration = form.get("DurationSeconds") ?? undefined;
  check({ field: "roleArn", value: roleArn, required: true, min: 20, max: 2048 }, problems);
  check(
    { field: "roleSessionName", value: roleSessionName, required: true, min: 2, max: 64, pattern: /^[\w+=,.@-]*$/ },
    problems,
  );
  check({ field: "externalId", value: externalId, min: 2, max: 1224, pattern: /^[\w+=,.@:/-]*$/ }, problems);
  let durationSeconds: number | undefined;
  if (rawDuration !== undefined) {
    durationSeconds = /^\d+$/.test(rawDuration) ? Number(rawDuration) : Number.NaN;
    if (Number.isNaN(durationSeconds)) {
      problems.push(
        `Value '${rawDuration}' at 'durationSeconds' failed to satisfy constraint: Member must be a number`,
      );
    } else if (durationSeconds < 900) {
      problems.push(
        `Value '${rawDuration}' at 'durationSeconds' failed to satisfy constraint: Member must have value greater than or equal to 900`,
      );
    } else if (durationSeconds > 43200) {
      problems.push(
        `Value '${rawDuration}' at 'durationSeconds' failed to satisfy constraint: Member must have value less than or equal to 43200`,
      );
    }
  }
  if (problems.length) throw validationError(problems);
  return { roleArn: roleArn as string, roleSessionName: roleSessionName as string, externalId, durationSeconds };
}
