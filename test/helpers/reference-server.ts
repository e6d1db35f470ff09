/**
 * The one way a self-test starts the embedded reference API server (test/unit/test-layout.test.ts holds
 * that no other test file names the server's constructor), so a change to how the server starts, or to
 * what every test server needs, is made here once.
 */
import { profiles, type Profile, type ProfileName } from '../../reference/profile.ts';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../targets/api-server/index.ts';

export type { ReferenceServer };

/** The server's options, the profile by name or value and `svc` when left out. */
export type TestServerOptions = Omit<ReferenceServerOptions, 'profile'> & { readonly profile?: Profile | ProfileName };

/** A reference server on a free loopback port; its `close` may be called more than once. */
export async function referenceServer(o: TestServerOptions = {}): Promise<ReferenceServer> {
  const profile = typeof o.profile === 'string' ? profiles[o.profile] : (o.profile ?? profiles.svc);
  const server = await startReferenceServer({ ...o, profile });
  let closed: Promise<void> | undefined;
  return { url: server.url, state: server.state, close: () => (closed ??= server.close()) };
}

/** `fn` with a server that is closed when `fn` ends, whether it passed or threw. */
export async function withReferenceServer<T>(o: TestServerOptions, fn: (server: ReferenceServer) => Promise<T>): Promise<T> {
  const server = await referenceServer(o);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}
