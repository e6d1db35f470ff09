// Why: confirmation replays a failure through the run's own check stage (runner/phases/settle.ts), one
// check from the failure's seed and path in namespaces of its own; a person watching the run must not
// see those replays as checks of the run (a second "[1/1] ..." line, a progress total that grows).
import { describe, expect, it } from 'vitest';
import { executeRun } from '../../../runner/executor.ts';
import { directStage, type CheckStage, type StageRequest } from '../../../runner/check-stage.ts';
import { plannedRun } from '../../helpers/planned-run.ts';

/** The stage the command line uses, with what it was asked and what it told the watcher. */
function watchedStage(): { stage: CheckStage; requests: StageRequest[]; told: string[] } {
  const requests: StageRequest[] = [];
  const told: string[] = [];
  const inner = directStage({
    events: {
      begin: (total) => told.push(`begin ${total}`),
      checkStarted: (id) => told.push(`started ${id}`),
      checkDone: (check) => told.push(`done ${check.id}`),
    },
  });
  return {
    requests,
    told,
    stage: (req) => {
      requests.push(req);
      return inner(req);
    },
  };
}

/** paging-snapshot against page-rv-drift on seed 7: a failure that every replay alone fails again; confirmed twice. */
const faulted = (runId: string) =>
  plannedRun({
    options: { check: ['paging-snapshot'], fault: ['page-rv-drift'], runs: 20, confirm: 2 },
    seed: 7,
    runId,
    inProcess: { keepFailures: false },
  });

describe('the settle phase replays failures through the check stage', () => {
  it('a fault that reproduces alone: each replay is one check from its seed and path, in a scope of its own, told to nobody', async () => {
    const plan = faulted('settle1');
    const w = watchedStage();
    const { run } = await executeRun(plan, { log: () => undefined, stage: w.stage });

    const failure = run.records.find((r) => r.verdict === 'fail');
    expect(failure, 'page-rv-drift fails paging-snapshot on seed 7').toBeDefined();
    const cx = failure!.counterexample!;
    expect(cx.confirmation?.label).toBe('reproduces alone');
    expect(cx.confirmation?.runs).toBe(2);

    const [first, ...replays] = w.requests;
    expect(first!.replay).toBeUndefined();
    expect(replays).toHaveLength(2);
    replays.forEach((req, i) => {
      expect(req.replay).toBe(true);
      expect(req.checks.map((c) => c.id)).toEqual(['paging-snapshot']);
      expect(req.settings).toMatchObject({ seed: cx.seed, path: cx.path, namespaceScope: `c${i + 1}`, backgroundWrites: false });
      expect(req.settings.replayCommand).not.toContain('--background-writes');
    });
    // The watcher heard of the run's one check only.
    expect(w.told).toEqual(['begin 1', 'started paging-snapshot', 'done paging-snapshot']);
  });

  it('a stage that drops the replay flag tells the watcher of every replay (what the first test would see broken)', async () => {
    const plan = faulted('settle2');
    const w = watchedStage();
    const deaf: CheckStage = ({ replay: _dropped, ...req }) => w.stage(req);
    await executeRun(plan, { log: () => undefined, stage: deaf });
    expect(w.told.filter((t) => t === 'started paging-snapshot')).toHaveLength(3);
  });
});
