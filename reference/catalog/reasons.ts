/**
 * Why a clause has no verdict, as data the report shows beside it.
 *
 * `informativeReasons`: every clause of kind `informative`, with the reason no black-box test can judge
 * it (descriptive text, terminology, a "not shown" note with nothing to record, an obligation of
 * clients or of a release process that spans several releases). The report shows these as informative,
 * never as a gap, and the coverage figure counts them apart.
 *
 * `notCheckedReasons`: normative or unspecified clauses that no check of this suite judges yet, and why.
 * A clause absent from both lists and left without a verdict gets the generic note of
 * reports/aggregate.ts.
 */
const OVERVIEW = 'overview of the service (section 1): its points are stated again, and checked, in the sections that specify them';
const TERM = 'terminology: defines a word the spec uses; nothing a server does can break it';
const NOTHING_TO_RECORD = 'a "not shown" note that names no request or answer: there is nothing for a run to record against it';
const ACROSS_RELEASES =
  "a rule over a sequence of releases: one running server of one release cannot be seen to break it (this release's removals are the rest:9.4 rows)";
const CLIENTS = 'an obligation of clients, not of the server: no answer of a server can break it';

export const informativeReasons: Readonly<Record<string, string>> = {
  'rest:1.1': OVERVIEW,
  'rest:1.2': OVERVIEW,
  'rest:1.3': `${OVERVIEW} (verbs: rest:4.1 rows)`,
  'rest:1.4': OVERVIEW,
  'rest:1.5': `${OVERVIEW} (watches: rest:6.1, pageable lists: rest:4.4)`,
  'rest:1.6': `${OVERVIEW}; the backing store is not visible through the API`,
  'rest:1.7': `${OVERVIEW} (JSON and protobuf: rest:2.7, rest:4.8)`,
  'rest:1.8': `${OVERVIEW} (health endpoints: rest:4.2)`,
  'rest:1.9': 'names the release the spec describes; the release a target reports is used by the rest:9 checks',
  'rest:2.1/resource-type': TERM,
  'rest:2.1/kind': TERM,
  'rest:2.1/collection': TERM,
  'rest:2.1/resource': TERM,
  'rest:2.1/subresource': TERM,
  'rest:2.1/virtual-resource-type': TERM,
  'rest:2.5.2': 'says some types may lack Table output: a permission, not a behaviour (the Table a type does serve is rest:2.5/table)',
  'rest:2.8/kind-fields-not-shown': NOTHING_TO_RECORD,
  'rest:3.3': 'introduces the stages; their rules are the rest:9.2 and rest:9.3 clauses',
  'rest:3.3/kind-state-machines-not-shown': NOTHING_TO_RECORD,
  'rest:4.1/subresource-verbs': 'says each subresource has verbs of its own, without naming them: no answer can contradict it',
  'rest:4.1/schemas-not-shown': NOTHING_TO_RECORD,
  'rest:4.1/deletecollection-not-shown': NOTHING_TO_RECORD,
  'rest:4.1/strategic-merge-not-shown': NOTHING_TO_RECORD,
  'rest:4.2.3': 'server options that only the operator starting the server sets: a client cannot set them or see their values',
  'rest:4.5/client-obligations': CLIENTS,
  'rest:5.2': `${CLIENTS} (client libraries' credential sources)`,
  'rest:8/beta-support': ACROSS_RELEASES,
  'rest:8/max-limit-not-shown': NOTHING_TO_RECORD,
  'rest:8/rate-size-limits-not-shown': NOTHING_TO_RECORD,
  'rest:9.1.4': 'a permission (any number of groups and versions): no set of served groups can break it',
  'rest:9.3/rule-1': ACROSS_RELEASES,
  'rest:9.3/rule-4a': ACROSS_RELEASES,
  'rest:9.3/rule-4b': ACROSS_RELEASES,
  'rest:9.3/rule-5a': 'about user-facing command-line clients across releases, not about the server',
  'rest:9.3/rule-5b': ACROSS_RELEASES,
  'rest:9.3/rule-7': ACROSS_RELEASES,
  'rest:9.3/rule-8': ACROSS_RELEASES,
  'rest:9.3/rule-9a': ACROSS_RELEASES,
  'rest:9.3/rule-9b': ACROSS_RELEASES,
  'rest:9.3/example-timeline': 'an example timeline over nine releases, illustrating rules 3 and 4a',
  'rest:9.4/guidance': 'migration advice to operators and users',
  'rest:9.4/client-libraries': 'lists client libraries; nothing a server does',
  'node:1.1': 'overview of the node agent (section 1); its configuration is checked field by field in node:2',
  'node:1.3': 'overview of the controller daemon (section 1); its command line is checked in node:1.4 and node:2.6',
  'node:2.3/SerializedNodeConfigSource.source':
    "the agent's own checkpoint of a dynamic configuration, whose shape is not shown: no configuration file a loader reads carries it",
  'node:5.3':
    'says the agent may request certificates and an approver must approve them: behaviour of a running agent and an approver, not of the configuration a loader reads',
  'node:5.4': 'describes the exec-plugin mechanism; the configuration that selects plugins is checked as node:2.1 rows',
};

export const notCheckedReasons: Readonly<Record<string, string>> = {
  'node:1.2': 'behaviour of a running agent pulling images: the loader protocol shows only how a configuration is read',
  'rest:6.3': "audit events are written to the server's audit log, which a client cannot read",
  'rest:9.3/rule-6': 'needs a deprecated command-line element of the target; the controller daemon suite knows none that 1.24 warns about',
  'rest:9.3/rule-9':
    'needs a deprecated feature gate: the gate lists of node:2.6 name none (no GA or deprecated gate), so no gate of the daemon can show the warning',
  'rest:9.1.3':
    "--runtime-config is an option of the server, which a client cannot set (the embedded server's own tests cover its parsing)",
  'rest:4/paths':
    'every check uses these paths, but no check judges a path layout apart from its rows (rest:9.1.1, rest:9.1.2, rest:4.1): no planted fault breaks the layout alone yet',
  'rest:4/collection-verbs':
    'list, watch and deletecollection are judged by their own rows (rest:4.1, rest:4.4, rest:6.1); no check names this summary row yet',
  'rest:4.5/list': 'the list table is judged cell by cell (rest:4.5/list/<match>/<paging>/<rv>); this row only introduces the table',
  'rest:4.7.6':
    "needs the command-line client's name and its client-side apply annotation, which the spec does not give (upstream: kubectl and kubectl.kubernetes.io/last-applied-configuration); the reference server does not model the upgrade yet",
  'rest:7.7': 'recorded only when a health check fails, and none fails on a healthy target; the suite has no way to make one fail',
  'rest:8/continue-token-lifetime':
    'the 5-minute default shows only by waiting it out; the continue-token-expiry check judges expiry against the window the target is configured with (rest:4.4.4), not its default',
  'rest:9.2/alpha':
    'judged on the name of every served alpha version (deprecated-versions); the target serves none here, as the spec allows (alpha may be off by default)',
  'node:2.5/matchImages':
    'not shown: the credential-provider cases judge the conditions the spec states (node:2.1/matchImages); no case yet records a pattern outside them',
  'node:2.6/vendor-container-registry-config':
    'the option names a file of a vendor format the spec does not show; the daemon suite passes no such file yet',
};
