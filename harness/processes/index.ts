/**
 * The processes room of harness/, its only door: code outside this folder imports from here, code inside
 * imports its siblings directly.
 *
 * Processes the suite starts or watches: the spawn helper, the controller daemon as a target, the
 * node-agent config loader, and the one openssl line for a self-signed pair. Depends on transport only.
 */
export {
  calibrate,
  certificatesIn,
  DaemonDidNotExit,
  daemonTarget,
  defaultDaemonTimings,
  freePort,
  handshakePatiently,
  kubeconfigJson,
  kubeconfigText,
  observeStart,
  probePatiently,
  processLauncher,
  runToExit,
  shellQuote,
  splitCommand,
  takeCalibrationRun,
  tempDir,
  writeCertPair,
} from './controller-daemon.ts';
export type {
  ControllerDaemonSettings,
  ControllerDaemonTarget,
  DaemonLauncher,
  DaemonProcess,
  Handshake,
  StartObservation,
} from './controller-daemon.ts';
export { loaderFromSettings, provideEmbeddedLoader } from './nodeagent-loader.ts';
export type { NodeagentLoaderSettings, NodeagentLoaderTarget } from './nodeagent-loader.ts';
export { EC_P256_KEY, selfSignedCertArgs } from './self-signed.ts';
export { holdSpawner, spawnChild } from './spawner.ts';
