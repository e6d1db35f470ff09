import { KubeConfig } from '@kubernetes/client-node';
import type { RequestOptions } from 'node:https';
import { describe, expect, it } from 'vitest';
import { plainOptions } from '../../../harness/transport/kubeconfig.ts';

type Body = Record<string, unknown>;

/** What client-node makes of one cluster and user, as harness/transport/kubeconfig.ts asks it. */
async function viaClientNode(cluster: Body, user: Body | undefined): Promise<RequestOptions> {
  const kc = new KubeConfig();
  kc.loadFromString(
    JSON.stringify({
      clusters: [{ name: 'c', cluster: { ...cluster, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'u', user: user ?? {} }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    }),
  );
  const o: RequestOptions = {};
  await kc.applyToHTTPSOptions(o);
  return o;
}

describe('kubeconfig without client-node for a server and a bearer token', () => {
  const clusters: Body[] = [{ server: 'http://127.0.0.1:1' }, { server: 'https://127.0.0.1:1', 'insecure-skip-tls-verify': true }];
  const users: (Body | undefined)[] = [undefined, {}, { token: 'abc' }, { token: '' }];
  for (const cluster of clusters)
    for (const user of users)
      it(`the same headers and no TLS material as client-node: ${JSON.stringify(cluster)} ${JSON.stringify(user)}`, async () => {
        const plain = plainOptions({ body: cluster }, user === undefined ? undefined : { body: user });
        const lib = await viaClientNode(cluster, user);
        expect(plain).toBeDefined();
        expect(plain!.headers).toEqual(lib.headers ?? {});
        expect([lib.ca, lib.cert, lib.key, lib.auth, lib.servername]).toEqual([undefined, undefined, undefined, undefined, undefined]);
      });

  const needClientNode: [string, Body, Body][] = [
    ['a CA', { server: 'https://h', 'certificate-authority-data': 'eA==' }, {}],
    ['a server name', { server: 'https://h', 'tls-server-name': 'x' }, {}],
    ['a token file', { server: 'https://h' }, { tokenFile: '/t' }],
    ['a client certificate', { server: 'https://h' }, { 'client-certificate-data': 'eA==', 'client-key-data': 'eA==' }],
    ['an exec plugin', { server: 'https://h' }, { exec: { command: 'x' } }],
    ['basic auth', { server: 'https://h' }, { username: 'a', password: 'b' }],
    ['impersonation', { server: 'https://h' }, { token: 't', as: 'someone' }],
    ['a token that is not a string', { server: 'https://h' }, { token: 5 }],
  ];
  for (const [what, cluster, user] of needClientNode)
    it(`leaves ${what} to client-node`, () => {
      expect(plainOptions({ body: cluster }, { body: user })).toBeUndefined();
    });
});
