import { runNodeagentChecks } from './scripts/dev/nodeagent-in-process.ts';
const t0 = process.cpuUsage();
for (const profile of ['svc', 'k8s'] as const) {
  const recs = await runNodeagentChecks({ checks: ['nodeagent-field-types'], runs: 25, seed: 1, profile, faults: process.argv[2] ? [process.argv[2] as never] : [] });
  const by: Record<string, number> = {};
  for (const r of recs) by[r.verdict] = (by[r.verdict] ?? 0) + 1;
  console.log(profile, by, recs.filter((r) => r.verdict === 'fail' || r.verdict === 'error').map((r) => [r.clause, r.note, r.counterexample?.steps, r.counterexample?.replay]));
  console.log(recs.filter((r) => r.clause.includes('hairpin')));
}
const u = process.cpuUsage(t0); console.log('cpu s', (u.user + u.system) / 1e6);
