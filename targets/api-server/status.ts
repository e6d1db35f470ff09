/** Error answers as upstream writes them: a `Status` object with reason and code. */
export interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export function statusAnswer(code: number, reason: string, message: string, headers?: Record<string, string>): Answer {
  return {
    status: code,
    body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code },
    headers,
  };
}

export const notFound = (plural: string, name: string) => statusAnswer(404, 'NotFound', `${plural} "${name}" not found`);
export const badRequest = (message: string) => statusAnswer(400, 'BadRequest', message);
export const invalid = (message: string) => statusAnswer(422, 'Invalid', message);
export const gone = (message: string) => statusAnswer(410, 'Expired', message);
export const conflict = (message: string) => statusAnswer(409, 'Conflict', message);
export const alreadyExists = (plural: string, name: string) => statusAnswer(409, 'AlreadyExists', `${plural} "${name}" already exists`);
export const success = () => ({ status: 200, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' } });
