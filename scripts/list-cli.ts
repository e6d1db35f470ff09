/** The listing commands: `list-checks`, `list-expectations` and `list-faults`. */
import { Command, Option } from '@commander-js/extra-typings';
import { checks } from '../suites/checks/index.ts';
import { faults as faultTable, partialModes, variations as variationTable } from '../targets/api-server/index.ts';
import { featureById } from '../reference/features.ts';
import { listBuiltinExpectations } from '../reports/builtin-expectations.ts';

export function registerListChecksCommand(program: Command): void {
  program
    .command('list-checks')
    .description('print every check with its clauses')
    .addOption(
      new Option('-o, --output <format>', 'one line per check, or a JSON array')
        .choices(['text', 'json'] as const)
        .default('text' as const),
    )
    .action((o) => {
      if (o.output === 'json') {
        process.stdout.write(
          `${JSON.stringify(
            checks.map((c) => ({ id: c.id, suite: c.suite, clauses: [...c.clauses] })),
            null,
            2,
          )}\n`,
        );
        return;
      }
      for (const c of checks) process.stdout.write(`${c.suite.padEnd(24)} ${c.id.padEnd(52)} ${c.clauses.join(' ')}\n`);
    });
}

export function registerListExpectationsCommand(program: Command): void {
  program
    .command('list-expectations')
    .description('print the expectations files shipped with the suite (give a name to --expectations)')
    .addOption(
      new Option('-o, --output <format>', 'per file its name, entries and description, then its path; or a JSON array')
        .choices(['text', 'json'] as const)
        .default('text' as const),
    )
    .action((o) => {
      const list = listBuiltinExpectations();
      if (o.output === 'json') {
        process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        return;
      }
      const width = Math.max(0, ...list.map((e) => e.name.length));
      for (const e of list)
        process.stdout.write(
          `${e.name.padEnd(width)}  ${String(e.entries).padStart(3)} entr${e.entries === 1 ? 'y  ' : 'ies'}  ${e.description}\n${''.padEnd(width)}  ${e.path}\n`,
        );
    });
}

export function registerListFaultsCommand(program: Command): void {
  program
    .command('list-faults')
    .description('print the faults, legal variations and partial modes (--without) of the embedded target')
    .action(() => {
      for (const f of faultTable) process.stdout.write(`fault      ${f.name.padEnd(34)} ${f.clause.padEnd(44)} ${f.description}\n`);
      for (const v of variationTable) process.stdout.write(`variation  ${v.name.padEnd(34)} ${''.padEnd(44)} ${v.description}\n`);
      for (const m of partialModes)
        process.stdout.write(`without    ${m.name.padEnd(34)} ${featureById(m.feature).clause.padEnd(44)} ${m.description}\n`);
    });
}
