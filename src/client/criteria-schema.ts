import { z } from 'zod';
import type { DateParam, Deployment, ParamDef } from '../deployments/schema';
import { compareDays, parseDateParam } from '../formats/dates';
import { kindOf } from '../formats/param-kinds';

/**
 * Search criteria validated in the browser with the rules the API enforces (see docs/design.md,
 * "Decisions"): the form catches a bad date or page size before a round trip. Built from
 * the deployment table, so a new parameter is validated without code changes here.
 */

/** Criteria as the API receives them: parameter name → non-empty value. */
export type CriteriaValues = Readonly<Record<string, string>>;

function paramSchema(deployment: Deployment, param: ParamDef): z.ZodType<string> {
  return z.string().superRefine((value, context) => {
    const problem = kindOf(param).problem(deployment, param, value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
}

/** Start and end bounds of the same date field must not cross. */
function checkDateRanges(deployment: Deployment, values: CriteriaValues, context: z.RefinementCtx): void {
  const dateParams = deployment.params.filter((param): param is DateParam => param.kind === 'date');
  for (const start of dateParams.filter((param) => param.bound === 'start')) {
    const end = dateParams.find((param) => param.field === start.field && param.bound === 'end');
    const from = values[start.name] && parseDateParam(values[start.name]!.trim(), deployment.dateFormat);
    const to = end && values[end.name] && parseDateParam(values[end.name]!.trim(), deployment.dateFormat);
    if (end && from && to && compareDays(from, to) > 0) {
      context.addIssue({
        code: 'custom',
        path: [start.name],
        message: `${start.label} must not be later than ${end.label.toLowerCase()}.`,
      });
    }
  }
}

export function criteriaSchema(deployment: Deployment) {
  const shape = Object.fromEntries(deployment.params.map((param) => [param.name, paramSchema(deployment, param).optional()]));
  return z.strictObject(shape).superRefine((values, context) => checkDateRanges(deployment, values as CriteriaValues, context));
}

/** Problems with some criteria, keyed by parameter name (empty when all is well). */
export function validateCriteria(deployment: Deployment, values: CriteriaValues): Record<string, string> {
  const parsed = criteriaSchema(deployment).safeParse(values);
  if (parsed.success) return {};
  const problems: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems[key] ??= `${key} is not a parameter of ${deployment.name} ${deployment.version}.`;
      continue;
    }
    const name = String(issue.path[0] ?? '');
    problems[name] ??= issue.message;
  }
  return problems;
}
