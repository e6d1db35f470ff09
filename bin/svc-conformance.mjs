#!/usr/bin/env node
// The CLI is TypeScript run through tsx, so a clone works after `npm ci` with no build step.
import { register } from 'tsx/esm/api';
register();
await import('../scripts/cli.ts');
