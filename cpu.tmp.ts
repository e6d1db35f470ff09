import { runNodeagentChecks } from './scripts/dev/nodeagent-in-process.ts';
await runNodeagentChecks({ checks: ['nodeagent-valid-configs'], runs: 5, seed: 1 });
for (const seed of [4242, 7, 99]) {
  const t0 = process.cpuUsage();
  await runNodeagentChecks({ checks: ['nodeagent-field-types'], runs: 25, seed });
  const u = process.cpuUsage(t0);
  const t1 = process.cpuUsage();
  await runNodeagentChecks({ checks: ['nodeagent-invalid-configs'], runs: 25, seed });
  const v = process.cpuUsage(t1);
  console.log(seed, 'field-types cpu s', ((u.user + u.system) / 1e6).toFixed(3), 'invalid-configs (25 files) cpu s', ((v.user + v.system) / 1e6).toFixed(3));
}
