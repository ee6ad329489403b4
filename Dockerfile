# syntax=docker/dockerfile:1
# One image, three roles: ROLE=api|worker|all selects what `node dist/src/main.js` runs, and
# `node dist/src/cli.js migrate` applies pending migrations and exits (the Kubernetes migration Job).
# test/unit/deploy/dockerfile.spec.ts checks this file statically (no Docker engine in CI).

# Node 24 is the current LTS line; pinned to a patch release (override with --build-arg NODE_IMAGE=...,
# ideally with an @sha256 digest from your registry).
ARG NODE_IMAGE=node:24.11.1-bookworm-slim

# 1. Build: every dependency (TypeScript among them), then compile to dist/ (tsc).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ormconfig.ts ./
COPY src ./src
COPY bench ./bench
# The operator console (Preact + Vite): built into dist/console by the same `npm run build`.
COPY web ./web
RUN npm run build

# 2. Production dependencies only (no dev dependencies reach the final image).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force

# 3. Runtime: production node_modules + the compiled service, as the unprivileged `node` user.
FROM ${NODE_IMAGE} AS runtime
# SANDBOX is not set here: it follows the engine (true on the embedded one, for a local try-out;
# false with DATABASE_URL, where every port's adapter must then be real or none: docs/production.md).
ENV NODE_ENV=production \
    ROLE=all \
    PORT=3000
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/console ./dist/console
# The embedded engine's default data dir (used only without DATABASE_URL) must be writable.
RUN mkdir -p /app/.data && chown 1000:1000 /app/.data
# uid/gid 1000 is the image's `node` user; numeric so Kubernetes can verify runAsNonRoot.
USER 1000:1000
EXPOSE 3000
# Liveness without curl: a few lines of node against GET /healthz on $PORT.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 CMD ["node", "dist/src/healthcheck.js"]
# Exec form: node runs as PID 1 and gets SIGTERM itself; src/main.ts handles it (graceful shutdown).
CMD ["node", "dist/src/main.js"]
