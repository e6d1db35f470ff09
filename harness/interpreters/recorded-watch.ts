/** A watch of a concurrent workload, its events recorded as they arrive with the time each was seen. */
import { type CaseContext } from '../case/index.ts';
import { type QueryPair } from '../transport/index.ts';
import { JsonDocumentStream } from '../transport/index.ts';
import { isRecord } from '../../reference/objects.ts';
import { type RecordedEvent, type RecordedWatch } from '../../reference/concurrency/history-types.ts';

export interface LiveWatch {
  readonly record: Omit<RecordedWatch, 'events' | 'end'> & { events: RecordedEvent[]; end: RecordedWatch['end'] };
  readonly stop: () => void;
  readonly stopped: () => boolean;
  readonly done: Promise<void>;
  /** Resolves the slow watcher's pause. */
  release?: () => void;
}

export async function openRecordedWatch(
  cx: CaseContext,
  id: string,
  path: string,
  namespaces: readonly string[],
  query: QueryPair[],
  start: RecordedWatch['start'],
  startKnownAt: number | 'opened',
  extra: Partial<RecordedWatch>,
): Promise<LiveWatch> {
  const target = cx.env.target;
  const base = { id, client: id, namespaces, start, bookmarksRequested: true, slow: false, ...extra };
  const opened = cx.env.now();
  if (!target.openStream) {
    const record = { ...base, startKnownAt: opened, opened, events: [] as RecordedEvent[], end: 'failed-to-start' as const };
    return { record, stop: () => undefined, stopped: () => true, done: Promise.resolve() };
  }
  const res = await target.openStream({ method: 'GET', path, query: [['watch', '1'], ...query] });
  const record: LiveWatch['record'] = {
    ...base,
    startKnownAt: startKnownAt === 'opened' ? cx.env.now() : startKnownAt,
    opened,
    events: [],
    end: res.status === 200 ? 'stopped' : res.status === 410 ? 'gone' : 'failed-to-start',
  };
  let stopped = false;
  let release: (() => void) | undefined;
  const paused = extra.slow === true ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const parser = new JsonDocumentStream();
  const done = (async () => {
    if (res.status !== 200) return;
    await paused;
    try {
      for await (const chunk of res.chunks) {
        for (const doc of parser.push(chunk)) {
          const ev = eventOf(doc, cx.env.now());
          if (ev.type === 'ERROR') {
            const code = isRecord(doc) && isRecord(doc['object']) ? doc['object']['code'] : undefined;
            record.end = code === 410 ? 'gone' : 'error';
          } else record.events.push(ev);
        }
        if (stopped) break;
      }
      if (!stopped && record.end === 'stopped') record.end = 'closed';
    } catch {
      if (!stopped) record.end = 'error';
    }
  })();
  const live: LiveWatch = {
    record,
    stop: () => {
      stopped = true;
      release?.();
      res.close();
    },
    stopped: () => stopped,
    done,
  };
  if (release !== undefined) live.release = release;
  return live;
}

function eventOf(doc: unknown, at: number): RecordedEvent {
  const d = isRecord(doc) ? doc : {};
  const type = typeof d['type'] === 'string' ? d['type'] : String(d['type']);
  const obj = isRecord(d['object']) ? d['object'] : {};
  const md = isRecord(obj['metadata']) ? obj['metadata'] : {};
  const rv = typeof md['resourceVersion'] === 'string' ? md['resourceVersion'] : undefined;
  if (type === 'BOOKMARK') return { type, rv, at };
  const data = isRecord(obj['data'])
    ? Object.fromEntries(Object.entries(obj['data']).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : undefined;
  const token = data?.['w'];
  return {
    type,
    key: typeof md['name'] === 'string' ? `${String(md['namespace'])}/${md['name']}` : undefined,
    token,
    rv,
    data,
    terminating: md['deletionTimestamp'] !== undefined && md['deletionTimestamp'] !== null ? true : undefined,
    at,
  };
}
