#!/usr/bin/env node
// The `scout` command: registers the TypeScript loader, then hands over to the CLI.
import { register } from 'tsx/esm/api';

register();
await import('../server/cli.ts');
