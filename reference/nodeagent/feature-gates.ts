/**
 * Feature gates the node agent reads (spec 2.6 "Feature gates" lists; node-agent fields of 2.2 name
 * the gates they need). Only the defaults matter to the config model: a field that "needs" a gate is
 * judged against the gate's effective value (its default, overridden by `featureGates`).
 *
 *   gateEnabled('CPUManager', {}, svc)                -> true  (BETA, default true)
 *   gateEnabled('QOSReserved', {}, svc)               -> false (ALPHA, default false)
 *   gateEnabled('QOSReserved', {QOSReserved: true})   -> true
 *
 * Gates the spec mentions without their names ("plus the node-agent credential provider ... gates")
 * are unknown here: the model leaves `featureGates` entries it does not know unspecified.
 */
import type { Profile } from '../profile.ts';
import { ALPHA, BETA_OFF, BETA_ON } from '../feature-gate-lists.ts';

/** The server-certificate rotation gate carries the agent's name (docs/architecture.md "Naming profiles"). */
export function serverCertGate(profile: Profile): string {
  return `Rotate${profile.agentGateStem}ServerCertificate`;
}

/** Node-agent-form alpha gates named in 2.6 ("DisableKubeletCloudCredentialProviders (node-agent form)"). */
function agentAlphaGates(profile: Profile): string[] {
  const agent = profile.agentGateStem;
  return [`Disable${agent}CloudCredentialProviders`, `${agent}InUserNamespace`];
}

/** Known gates and their defaults under the profile. */
export function gateDefaults(profile: Profile): ReadonlyMap<string, boolean> {
  const m = new Map<string, boolean>();
  for (const g of BETA_ON) m.set(g, true);
  m.set(serverCertGate(profile), true);
  for (const g of [...BETA_OFF, ...ALPHA, ...agentAlphaGates(profile)]) m.set(g, false);
  return m;
}

/** Effective value of a gate; undefined for a gate whose name the spec does not show. */
export function gateEnabled(name: string, featureGates: Readonly<Record<string, unknown>>, profile: Profile): boolean | undefined {
  const set = Object.prototype.hasOwnProperty.call(featureGates, name) ? featureGates[name] : undefined;
  if (typeof set === 'boolean') return set;
  return gateDefaults(profile).get(name);
}
