// The JSON schema of summary.json (docs/schemas/summary.schema.json) as an Ajv validator, compiled once
// per worker for every unit file that validates a summary: compiling it costs more than the validations.
import { Ajv, type ValidateFunction } from 'ajv';
import { summaryJsonSchema } from '../../../reports/summary-schema.ts';

let compiled: ValidateFunction | undefined;

/** The validator of summary.json, strict as the docs publish it. */
export function summaryValidator(): ValidateFunction {
  compiled ??= new Ajv({ strict: true, allowUnionTypes: true, allErrors: true }).addFormat('date-time', true).compile(summaryJsonSchema);
  return compiled;
}
