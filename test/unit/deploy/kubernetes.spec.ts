import 'reflect-metadata';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { getMetadataArgsStorage } from 'typeorm';
import { parseAllDocuments } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../../../src/config/app-config.js';
import { PORT_VARIABLES, portSummary } from '../../../src/config/ports.js';
import { HealthController } from '../../../src/health/health.controller.js';
import { OutboxEventEntity } from '../../../src/outbox/outbox.entities.js';

/**
 * deploy/: the Kustomize base and the production overlay, rendered here by a small subset of
 * kustomize (resources, namespace, labels, images, replicas, JSON 6902 patches: what deploy/ uses),
 * then every object validated offline against the Kubernetes schemas (kubernetes-models) and
 * checked against the app: probe paths, ports, environment names and commands.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const DEPLOY = path.join(ROOT, 'deploy');

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Kustomization {
  resources?: string[];
  namespace?: string;
  labels?: Array<{ pairs: Record<string, string> }>;
  images?: Array<{ name: string; newName?: string; newTag?: string; digest?: string }>;
  replicas?: Array<{ name: string; count: number }>;
  patches?: Array<{ path: string; target: { kind: string; name: string } }>;
}

const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding']);

function readYaml(file: string): Obj[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS() as Obj | null)
    .filter((d): d is Obj => d !== null);
}

function podSpecs(o: Obj): Obj[] {
  if (o.kind === 'Deployment' || o.kind === 'Job') return [o.spec.template.spec as Obj];
  return [];
}

/** Applies one JSON 6902 operation (add / replace / remove). */
function applyOp(doc: Obj, op: { op: string; path: string; value?: unknown }): void {
  const keys = op.path
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = keys.pop()!;
  let parent: Obj = doc;
  for (const key of keys) parent = parent[key] as Obj;
  expect(parent).toBeDefined();
  if (op.op === 'remove') {
    expect(parent[last]).toBeDefined();
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (op.op === 'replace') {
    expect(parent[last]).toBeDefined();
    parent[last] = op.value;
  } else if (op.op === 'add') {
    if (Array.isArray(parent)) parent.splice(last === '-' ? parent.length : Number(last), 0, op.value);
    else parent[last] = op.value;
  } else throw new Error(`unsupported patch op ${op.op}`);
}

/** `kustomize build dir`, for the features deploy/ uses (anything else fails the test). */
function build(dir: string): Obj[] {
  const k = readYaml(path.join(dir, 'kustomization.yaml'))[0] as Kustomization;
  const known = ['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'images', 'replicas', 'patches'];
  expect(Object.keys(k).filter((key) => !known.includes(key))).toEqual([]);
  const objects: Obj[] = [];
  for (const resource of k.resources ?? []) {
    const target = path.join(dir, resource);
    objects.push(...(statSync(target).isDirectory() ? build(target) : readYaml(target)));
  }
  for (const o of objects) {
    for (const { pairs } of k.labels ?? []) o.metadata.labels = { ...o.metadata.labels, ...pairs };
    if (k.namespace && !CLUSTER_SCOPED.has(o.kind as string)) o.metadata.namespace = k.namespace;
    for (const spec of podSpecs(o)) {
      for (const c of spec.containers as Obj[]) {
        const image = k.images?.find((i) => String(c.image).split(/[:@]/)[0] === i.name);
        if (!image) continue;
        const name = image.newName ?? image.name;
        c.image = image.digest ? `${name}@${image.digest}` : `${name}:${image.newTag}`;
      }
    }
    const replicas = o.kind === 'Deployment' ? k.replicas?.find((r) => r.name === o.metadata.name) : undefined;
    if (replicas) o.spec.replicas = replicas.count;
  }
  for (const patch of k.patches ?? []) {
    const targets = objects.filter((o) => o.kind === patch.target.kind && o.metadata.name === patch.target.name);
    expect(targets).toHaveLength(1);
    const ops = readYaml(path.join(dir, patch.path))[0] as unknown as Array<{ op: string; path: string }>;
    for (const op of ops) applyOp(targets[0], op);
  }
  return objects;
}

/** Validates against the object's schema from kubernetes-models (throws with the failing path). */
async function validate(o: Obj): Promise<void> {
  const modulePath = `kubernetes-models/${o.apiVersion as string}/${o.kind as string}`;
  const module = (await import(modulePath)) as Record<string, new (data: Obj) => { validate(): void }>;
  const Model = module[o.kind as string] ?? module.default;
  expect(Model).toBeDefined();
  new Model(o).validate();
}

const base = build(path.join(DEPLOY, 'base'));
const production = build(path.join(DEPLOY, 'overlays/production'));

function find(objects: Obj[], kind: string, name: string): Obj {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} missing`);
  return found;
}
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

describe.each([
  ['base', base],
  ['production overlay', production],
])('deploy/ %s', (_, objects) => {
  it('validates every object against the Kubernetes schemas', async () => {
    expect(objects.length).toBeGreaterThanOrEqual(10);
    for (const o of objects) await validate(o);
  });

  it('has the API and worker Deployments, the migration Job, Service, ConfigMap, PDBs, HPA and NetworkPolicies', () => {
    const api = find(objects, 'Deployment', 'payments-api');
    const worker = find(objects, 'Deployment', 'payments-worker');
    expect(api.spec.replicas).toBe(3);
    expect(worker.spec.replicas).toBe(2);
    const env = (d: Obj) =>
      Object.fromEntries((d.spec.template.spec.containers[0].env as Obj[]).map((e) => [e.name as string, e]));
    expect(env(api).ROLE.value).toBe('api');
    expect(env(worker).ROLE.value).toBe('worker');
    const job = find(objects, 'Job', 'payments-api-migrate');
    expect(job.spec.template.spec.containers[0].command).toEqual(['node', 'dist/src/cli.js', 'migrate']);
    const hpa = find(objects, 'HorizontalPodAutoscaler', 'payments-api');
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'payments-api' });
    expect(hpa.spec.minReplicas).toBe(3);
    const apiLabels = api.spec.template.metadata.labels as Record<string, string>;
    const workerLabels = worker.spec.template.metadata.labels as Record<string, string>;
    const service = find(objects, 'Service', 'payments-api');
    expect(matches(service.spec.selector as Record<string, string>, apiLabels)).toBe(true);
    expect(matches(service.spec.selector as Record<string, string>, workerLabels)).toBe(false);
    const pdbs = objects.filter((o) => o.kind === 'PodDisruptionBudget');
    for (const labels of [apiLabels, workerLabels])
      expect(pdbs.filter((p) => matches(p.spec.selector.matchLabels as Record<string, string>, labels))).toHaveLength(
        1,
      );
    const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
    expect(policies.some((p) => JSON.stringify(p.spec.policyTypes) === '["Ingress","Egress"]' && !p.spec.ingress)).toBe(
      true,
    );
    for (const d of [api, worker])
      expect(d.spec.selector.matchLabels).toEqual(
        Object.fromEntries(
          Object.keys(d.spec.selector.matchLabels as object).map((k) => [k, d.spec.template.metadata.labels[k]]),
        ),
      );
  });

  it('probes, ports, commands and environment names match the app', () => {
    const healthPaths = ['live', 'ready'].map(
      (m) =>
        Reflect.getMetadata('path', (HealthController.prototype as unknown as Record<string, object>)[m]) as string,
    );
    expect(healthPaths).toEqual(['healthz', 'readyz']);
    const config = find(objects, 'ConfigMap', 'payments-api-config').data as Record<string, string>;
    // The ConfigMap is a valid production configuration for the app.
    const parsed = loadConfig({ ...config, DATABASE_URL: 'postgres://db/payments' });
    expect(parsed.SANDBOX).toBe(false);
    // Every outside-world port chosen explicitly, none of them a sandbox (docs/production.md).
    expect(PORT_VARIABLES.filter((v) => config[v] === undefined)).toEqual([]);
    expect(portSummary(parsed).filter((p) => p.kind === 'sandbox')).toEqual([]);
    expect(parsed.allowPrivateWebhookTargets).toBe(false);
    expect(Object.keys(config).filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
    for (const o of objects) {
      for (const spec of podSpecs(o)) {
        for (const c of spec.containers as Obj[]) {
          const where = `${o.kind as string}/${o.metadata.name as string}`;
          const names = (c.env as Obj[]).map((e) => e.name as string);
          expect({ where, unknown: names.filter((n) => !CONFIG_VARIABLES.includes(n)) }).toEqual({
            where,
            unknown: [],
          });
          const secret = (name: string) =>
            (c.env as Obj[]).find((e) => e.name === name)?.valueFrom?.secretKeyRef as Obj;
          expect(secret('DATABASE_URL')).toMatchObject({ name: 'payments-api-secrets', key: 'DATABASE_URL' });
          expect(c.envFrom).toEqual([{ configMapRef: { name: 'payments-api-config' } }]);
          // Commands run files the build emits (dist/src/x.js from src/x.ts).
          expect(c.command[0]).toBe('node');
          expect(
            existsSync(
              path.join(
                ROOT,
                String(c.command[1])
                  .replace(/^dist\//, '')
                  .replace(/\.js$/, '.ts'),
              ),
            ),
          ).toBe(true);
          if (o.kind !== 'Deployment') continue;
          expect(secret('WEBHOOK_KEY_ENCRYPTION_KEY')).toMatchObject({ key: 'WEBHOOK_KEY_ENCRYPTION_KEY' });
          const ports = c.ports as Obj[];
          expect(ports).toEqual([
            { name: 'http', containerPort: Number(config.PORT), protocol: 'TCP' },
            // Prometheus /metrics on its own port (METRICS_PORT), never the API port.
            { name: 'metrics', containerPort: Number(config.METRICS_PORT), protocol: 'TCP' },
          ]);
          expect(config.METRICS_PORT).not.toBe(config.PORT);
          expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
          expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
          expect(spec.terminationGracePeriodSeconds).toBe(30);
        }
      }
    }
    const service = find(objects, 'Service', 'payments-api');
    expect(service.spec.ports[0].targetPort).toBe('http');
  });

  it('runs every container non-root, read-only, without capabilities, with requests and limits', () => {
    for (const o of objects) {
      for (const spec of podSpecs(o)) {
        expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
        expect(spec.automountServiceAccountToken).toBe(false);
        for (const c of spec.containers as Obj[]) {
          expect(c.securityContext).toMatchObject({
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ['ALL'] },
          });
          expect(Object.keys(c.resources.requests as object).sort()).toEqual(['cpu', 'memory']);
          expect(Object.keys(c.resources.limits as object).sort()).toEqual(['cpu', 'memory']);
        }
      }
    }
  });
});

describe('deploy/ production overlay specifics', () => {
  it('pins the image and sets the namespace', () => {
    for (const o of production) expect(o.metadata.namespace).toBe('payments');
    for (const spec of production.flatMap(podSpecs))
      for (const c of spec.containers as Obj[])
        expect(c.image).toMatch(/^[\w./-]+(:\d+\.\d+\.\d+|@sha256:[0-9a-f]{64})$/);
    expect(find(production, 'HorizontalPodAutoscaler', 'payments-api').spec.maxReplicas).toBe(20);
    expect(find(production, 'Deployment', 'payments-api').spec.template.spec.containers[0].resources.limits.cpu).toBe(
      '2',
    );
  });

  it('documents the Secret keys the pods reference', () => {
    const [secret] = readYaml(path.join(DEPLOY, 'overlays/production/secret.example.yaml'));
    const referenced = new Set(
      production
        .flatMap(podSpecs)
        .flatMap((s) => s.containers as Obj[])
        .flatMap((c) => c.env as Obj[])
        .map((e) => e.valueFrom?.secretKeyRef?.key as string | undefined)
        .filter((k): k is string => k !== undefined),
    );
    expect(Object.keys(secret.stringData as object).sort()).toEqual([...referenced].sort());
  });
});

describe('deploy/examples', () => {
  it('CloudNativePG: a Cluster, its backups and a transaction-mode Pooler whose Services the Secret example uses', () => {
    const objects = readYaml(path.join(DEPLOY, 'examples/cloudnative-pg/cluster.yaml'));
    expect(objects.map((o) => o.kind as string)).toEqual(['Cluster', 'ScheduledBackup', 'Pooler']);
    const [cluster, , pooler] = objects;
    expect(cluster.apiVersion).toBe('postgresql.cnpg.io/v1');
    expect(cluster.spec.instances).toBeGreaterThanOrEqual(3);
    expect(pooler.spec).toMatchObject({
      type: 'rw',
      cluster: { name: cluster.metadata.name },
      pgbouncer: { poolMode: 'transaction' },
    });
    const [secret] = readYaml(path.join(DEPLOY, 'overlays/production/secret.example.yaml'));
    expect(secret.stringData.DATABASE_URL).toContain(`@${pooler.metadata.name as string}:`);
    expect(secret.stringData.DATABASE_DIRECT_URL).toContain(`@${cluster.metadata.name as string}-rw:`);
  });

  it('StackGres: a Citus sharded cluster (coordinator and two shards) pooled in transaction mode, the URLs it documents', () => {
    const file = path.join(DEPLOY, 'examples/stackgres/sharded-cluster.yaml');
    const objects = readYaml(file);
    expect(objects.map((o) => o.kind as string)).toEqual(['SGPoolingConfig', 'SGShardedCluster']);
    const [pooling, cluster] = objects;
    for (const o of objects) expect(o.metadata.namespace).toBe('payments');
    expect(pooling.apiVersion).toBe('stackgres.io/v1');
    expect(pooling.spec.pgBouncer['pgbouncer.ini'].pgbouncer.pool_mode).toBe('transaction');
    expect(cluster.apiVersion).toBe('stackgres.io/v1alpha1');
    expect(cluster.spec).toMatchObject({
      type: 'citus',
      database: 'payments',
      postgres: { version: '15', extensions: [{ name: 'citus' }] },
      coordinator: { configurations: { sgPoolingConfig: pooling.metadata.name } },
      shards: { clusters: 2, configurations: { sgPoolingConfig: pooling.metadata.name } },
    });
    expect(cluster.spec.coordinator.instances).toBeGreaterThanOrEqual(1);
    expect(cluster.spec.shards.instancesPerCluster).toBeGreaterThanOrEqual(1);
    // The comment tells the API where to connect: the coordinator's Service, named after the cluster.
    const text = readFileSync(file, 'utf8');
    const host = `@${cluster.metadata.name as string}:`;
    expect(text).toMatch(new RegExp(`DATABASE_URL=postgres://\\S+${host}5432/${cluster.spec.database as string}\\n`));
    expect(text).toMatch(
      new RegExp(`DATABASE_DIRECT_URL=postgres://\\S+${host}5433/${cluster.spec.database as string}\\n`),
    );
    // The command it names is the CLI's.
    expect(text).toContain('node dist/src/cli.js distribution --apply');
    expect(readFileSync(path.join(ROOT, 'src/cli.ts'), 'utf8')).toContain("case 'distribution':");
  });

  it("Debezium: the outbox event router's columns exist on outbox_events", () => {
    const { config } = JSON.parse(
      readFileSync(path.join(DEPLOY, 'examples/debezium/outbox-connector.json'), 'utf8'),
    ) as {
      config: Record<string, string>;
    };
    const columns = new Set(
      getMetadataArgsStorage()
        .columns.filter((c) => c.target === OutboxEventEntity)
        .map((c) => c.options.name ?? c.propertyName),
    );
    const fields = Object.entries(config)
      .filter(([key]) => /^transforms\.outbox\.(table\.field\.event\.\w+|route\.by\.field)$/.test(key))
      .map(([, column]) => column);
    expect(fields.sort()).toEqual(['aggregate_id', 'aggregate_type', 'body', 'id', 'type']);
    for (const column of fields) expect(columns).toContain(column);
    expect(config['table.include.list']).toBe('public.outbox_events');
  });
});
