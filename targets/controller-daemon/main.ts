/**
 * Entry of the reference controller daemon as its own process:
 *   node --import tsx targets/controller-daemon/main.ts [--profile svc|k8s] [--fault NAME]... <daemon flags>
 * The leading --profile and --fault are ours (not daemon flags); everything after is the daemon's.
 * Exits 0 on SIGTERM/SIGINT, 1 on invalid options, 2 on a bad --profile or --fault.
 */
import { runDaemonProcess } from './process.ts';

process.exitCode = await runDaemonProcess(process.argv.slice(2));
