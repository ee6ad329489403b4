import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withConfigTable } from './config-docs.js';

/** `npm run docs:config`: rewrites the table in docs/configuration.md from the config class. */
const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/configuration.md');
const before = fs.readFileSync(file, 'utf8');
const after = withConfigTable(before);
if (after !== before) fs.writeFileSync(file, after);
process.stdout.write(`${path.relative(process.cwd(), file)}: ${after === before ? 'up to date' : 'table rewritten'}\n`);
