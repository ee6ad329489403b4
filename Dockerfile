# syntax=docker/dockerfile:1
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
COPY bench ./bench
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The embedded engine's default data dir (used only without DATABASE_URL) must be writable.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
# ROLE=api|worker|all; set DATABASE_URL and WEBHOOK_KEY_ENCRYPTION_KEY in production (the embedded engine is for bare machines).
CMD ["node", "dist/src/main.js"]
