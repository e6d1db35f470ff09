/**
 * Judges of what a target serves against the removal table (rest:9.4) and of its discovery (rest:9.1.2),
 * over what the versioning checks saw: status codes, parsed bodies, whether discovery lists a resource.
 * Here, not in suites/checks/versioning.ts, so the checks only send and hand the answers over.
 *
 *   judgeRemovalRow(svc, coordinationV1beta1Leases, v1.24, true)
 *     -> fail rest:9.4/coordination-v1beta1-lease 'coordination.svc.io/v1beta1 leases is not served in v1.24 (removed in v1.22)'
 */
import { pass, rule, type Judgement } from '../judgement.ts';
import type { Profile } from '../profile.ts';
import { formatRelease, type Release } from './release.ts';
import { groupName, groupVersionOf, servedIn, type Removal } from './removals.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * rest:9.1.2 on GET /apis: 200 with an APIGroupList (a `groups` array).
 *
 *   judgeGroupList(200, { kind: 'APIGroupList', groups: [] }) -> pass     judgeGroupList(200, {}) -> fail
 */
export function judgeGroupList(status: number, body: unknown): Judgement {
  return rule(
    'rest:9.1.2',
    status === 200 && isRecord(body) && Array.isArray(body['groups']),
    'GET /apis lists the named groups (200, APIGroupList)',
    `status ${status}`,
  );
}

/**
 * rest:9.4 on one row of the removal table at `release`: a removed resource is not listed by discovery
 * under its group version (`listed`, asked only for a removed row; undefined when not asked); one not
 * yet removed may or may not be served, so its row passes whatever discovery says.
 *
 *   judgeRemovalRow(svc, batchV1beta1CronJobs, v1.24, undefined) -> pass 'served or not: batch/v1beta1 CronJob stops only in v1.25'
 */
export function judgeRemovalRow(profile: Profile, row: Removal, release: Release, listed: boolean | undefined): Judgement {
  const gv = groupVersionOf(profile, row.group, row.version);
  if (servedIn(profile, groupName(profile, row.group), row.version, row.resource, release) !== 'removed') {
    return pass(
      row.clause,
      `served or not: ${gv} ${row.kind} stops only in ${formatRelease(row.removedIn)}`,
      `release ${formatRelease(release)}`,
    );
  }
  const present = listed === true;
  return rule(
    row.clause,
    !present,
    `${gv} ${row.resource} is not served in ${formatRelease(release)} (removed in ${formatRelease(row.removedIn)})`,
    present ? `discovery lists ${row.resource} under ${gv}` : 'not listed',
  );
}

/**
 * rest:4.1/post on the create through the deprecated version of rest:9.4/persisted-objects: 2xx and the
 * created object named in the answer.
 *
 *   judgePersistedCreate({ status: 201, json: { metadata: { name: 'pdb-x' } }, bodyText: '...' }) -> pass
 */
export function judgePersistedCreate(created: { readonly status: number; readonly json: unknown; readonly bodyText: string }): Judgement {
  const md = isRecord(created.json) && isRecord(created.json['metadata']) ? created.json['metadata'] : {};
  return rule(
    'rest:4.1/post',
    created.status >= 200 && created.status < 300 && typeof md['name'] === 'string',
    'the PodDisruptionBudget is created (2xx, with a name)',
    `status ${created.status}: ${created.bodyText.slice(0, 200)}`,
  );
}

/** A PodDisruptionBudget's spec as the suite writes it: minAvailable and a label selector. */
export interface PdbSpec {
  readonly minAvailable: number;
  readonly selector: { readonly matchLabels: Readonly<Record<string, string>> };
}

/**
 * rest:9.4/persisted-objects: the object `created` (its answer's metadata: name, uid) through the
 * deprecated version is found through the replacement, by GET (`via` 'get') or in a list, with the
 * same uid, minAvailable and selector.
 *
 *   judgePersistedRead({ name: 'pdb-x', uid: 'u1' }, spec, 'get', { status: 404, json: {...} }) -> fail ... 'status 404, not found'
 */
export function judgePersistedRead(
  created: { readonly name: string; readonly uid: unknown },
  spec: PdbSpec,
  via: 'get' | 'list',
  read: { readonly status: number; readonly json: unknown },
): Judgement {
  const items =
    via === 'get'
      ? read.status === 200
        ? [read.json]
        : []
      : isRecord(read.json) && Array.isArray(read.json['items'])
        ? read.json['items']
        : [];
  const found = items.filter(isRecord).find((o) => isRecord(o['metadata']) && o['metadata']['name'] === created.name);
  const fmd = found && isRecord(found['metadata']) ? found['metadata'] : {};
  const fspec = found && isRecord(found['spec']) ? found['spec'] : {};
  const same =
    found !== undefined &&
    fmd['uid'] === created.uid &&
    JSON.stringify(fspec['minAvailable']) === JSON.stringify(spec.minAvailable) &&
    JSON.stringify(fspec['selector']) === JSON.stringify(spec.selector);
  const selector = Object.entries(spec.selector.matchLabels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return rule(
    'rest:9.4/persisted-objects',
    same,
    `${created.name} (uid ${String(created.uid)}) is read through policy/v1 with minAvailable ${spec.minAvailable} and selector ${selector}`,
    found ? `uid ${String(fmd['uid'])}, spec ${JSON.stringify(fspec)}` : `status ${read.status}, not found`,
  );
}
