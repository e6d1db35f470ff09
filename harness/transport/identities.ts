/**
 * The identities a run acts as (rest:5): its own (the kubeconfig's), nobody (no credentials), an
 * unknown one (a bearer token nobody issued), and a restricted one (`--restricted-kubeconfig`). One
 * client per identity behind one Target: a request's `identity` picks the client, so every request
 * still passes the run's one safety guard and lands in the one transcript.
 */
import { randomBytes, X509Certificate } from 'node:crypto';
import { createTargetClient, type ClientOptions } from './client.ts';
import type { Target, TargetRequest } from './exchange.ts';
import type { TargetConfig } from './kubeconfig.ts';

const CREDENTIAL_HEADERS = new Set(['authorization', 'impersonate-user', 'impersonate-group', 'impersonate-uid']);

/** The same server and TLS trust, with no credentials of any kind. */
export function anonymousConfig(cfg: TargetConfig): TargetConfig {
  const { cert: _c, key: _k, ...tls } = cfg.tls;
  const headers = Object.fromEntries(Object.entries(cfg.headers).filter(([k]) => !CREDENTIAL_HEADERS.has(k.toLowerCase())));
  return { ...cfg, tls, headers, source: `${cfg.source} (no credentials)` };
}

export function identitiesClient(cfg: TargetConfig, restricted: TargetConfig | undefined, opts: ClientOptions): Target {
  const own = createTargetClient(cfg, opts);
  const nobody = anonymousConfig(cfg);
  const anonymous = createTargetClient(nobody, opts);
  // Random per run, so no server can have issued it; redacted in every transcript like any token.
  const unknown = createTargetClient(
    { ...nobody, headers: { ...nobody.headers, Authorization: `Bearer svc-conformance-unknown-${randomBytes(12).toString('hex')}` } },
    opts,
  );
  const limited = restricted === undefined ? undefined : createTargetClient(restricted, opts);
  const pick = (req: TargetRequest): Target => {
    switch (req.identity) {
      case undefined:
        return own;
      case 'anonymous':
        return anonymous;
      case 'unknown':
        return unknown;
      case 'restricted':
        if (!limited) throw new Error('a request as the restricted identity, but no --restricted-kubeconfig was given');
        return limited;
    }
  };
  return {
    server: own.server,
    send: (req) => pick(req).send(req),
    openStream: own.openStream ? (req: TargetRequest) => (pick(req).openStream ?? own.openStream!)(req) : undefined,
    async close() {
      await Promise.all([own.close(), anonymous.close(), unknown.close(), limited?.close()]);
    },
  };
}

/**
 * The user name of a restricted kubeconfig when its credentials say it: a client certificate's
 * subject CN (as upstream's x509 authenticator reads it). Undefined for a token: the check learns
 * that one with a TokenReview.
 */
export function restrictedUserOf(cfg: TargetConfig): string | undefined {
  if (cfg.tls.cert === undefined) return undefined;
  try {
    const subject = new X509Certificate(cfg.tls.cert).subject;
    return /(?:^|\n)CN=([^\n]+)/.exec(subject)?.[1];
  } catch {
    return undefined;
  }
}

/** The bearer token of a restricted kubeconfig, to ask a TokenReview about it; never logged. */
export function bearerOf(cfg: TargetConfig): string | undefined {
  const auth = Object.entries(cfg.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  return auth === undefined ? undefined : /^Bearer\s+(\S+)/i.exec(auth)?.[1];
}

/**
 * The restricted identity's user name: from its certificate, or from a TokenReview the run's own
 * identity posts about its token. The review goes out unrecorded: its body holds the credential.
 */
export function restrictedUserLearner(
  own: TargetConfig,
  restricted: TargetConfig,
  authorizationGroup: string,
): () => Promise<string | undefined> {
  let learned: Promise<string | undefined> | undefined;
  return () => {
    learned ??= (async () => {
      const fromCert = restrictedUserOf(restricted);
      if (fromCert !== undefined) return fromCert;
      const token = bearerOf(restricted);
      if (token === undefined) return undefined;
      const quiet = createTargetClient(own, { maxRetries: 1 });
      try {
        const r = await quiet.send({
          method: 'POST',
          path: `/apis/${authorizationGroup.replace(/^authorization\./, 'authentication.')}/v1/tokenreviews`,
          body: {
            apiVersion: `${authorizationGroup.replace(/^authorization\./, 'authentication.')}/v1`,
            kind: 'TokenReview',
            spec: { token },
          },
        });
        const user = (r.json as { status?: { authenticated?: boolean; user?: { username?: unknown } } } | undefined)?.status;
        return user?.authenticated === true && typeof user.user?.username === 'string' ? user.user.username : undefined;
      } catch {
        return undefined;
      } finally {
        await quiet.close();
      }
    })();
    return learned;
  };
}
