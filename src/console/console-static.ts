import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { ApiError } from '../errors/api-error.js';
import { sendApiError } from '../errors/error-response.js';

/** Where `npm run build` writes the console (Vite, from web/): `dist/console` beside package.json. */
export function consoleBuildDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return path.join(dir, 'dist', 'console');
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The console's files, mounted at `/console`: content-hashed assets (`/console/assets/*`) cached
 * for a year, everything else revalidated (`no-cache`); any other GET under `/console` (a page of
 * the single-page app: `/console/cards/Card:…`) answers index.html. `/console/api/` is left to
 * the session controller. When the console was not built, its pages answer 404 saying so.
 */
export function consoleStatic(dir: string = consoleBuildDir()): Router {
  const router = express.Router();
  const indexPath = path.join(dir, 'index.html');
  const index = existsSync(indexPath) ? readFileSync(indexPath) : null;
  router.use(
    express.static(dir, {
      index: false,
      redirect: false,
      setHeaders: (res, file) =>
        res.setHeader('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : 'no-cache'),
    }),
  );
  router.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/api/')) return next();
    if (req.path.startsWith('/assets/')) return next();
    if (!index) {
      return sendApiError(res, new ApiError('NOT_FOUND', 'The console is not built: run `npm run build`'));
    }
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.end(req.method === 'HEAD' ? undefined : index);
  });
  return router;
}
