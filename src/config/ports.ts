/**
 * The outside world's ports (docs/production.md): every provider this service talks to sits behind
 * one port, and each port runs exactly one adapter, chosen by one variable. An adapter is `real`
 * (a provider: money or messages really move), `sandbox` (this service plays the provider: magic
 * values, `/sandbox/*` triggers) or `none` (not configured: the routes that need the port answer
 * 503 `SERVICE_UNAVAILABLE` with `details.notConfigured` naming the port's variable).
 *
 * Fail closed: with `SANDBOX=false` no port may run a sandbox adapter (`portProblems` names the
 * variable and boot stops). Unset, a port's variable defaults to `sandbox` with `SANDBOX=true` and
 * to `none` (or the port's real default, e.g. `database` documents) with `SANDBOX=false`.
 */
import { DEFAULT_FX_RATES } from './rate-defaults.js';

export type AdapterKind = 'real' | 'sandbox' | 'none';

/** The settings a port's default may depend on besides its own variable. */
export interface PortSettings {
  readonly SANDBOX: boolean;
  readonly MESSAGE_HOOK_URL?: string;
  readonly FX_RATES?: string;
}

/** What `portAdapter` reads: the mode, those settings and every port variable (an `AppConfig` is one). */
export type PortConfig = PortSettings & Partial<Record<PortVariable, string>>;

export interface PortSpec {
  /** What the port is, for people ("payout rail"). */
  readonly title: string;
  /** Adapter name -> its kind. */
  readonly adapters: Readonly<Record<string, AdapterKind>>;
  /** The adapter with SANDBOX=false when the variable is unset. */
  readonly productionDefault: string;
  /**
   * The adapter when the variable is unset and another setting decides (e.g. `MESSAGE_HOOK_URL`
   * makes email and SMS default to `hook`); `undefined` falls back to the mode's default.
   */
  readonly defaultFor?: (config: PortSettings) => string | undefined;
}

const hookWhenConfigured = (config: PortSettings): string | undefined => (config.MESSAGE_HOOK_URL ? 'hook' : undefined);
/** With SANDBOX=false, an operator's own FX_RATES table (anything but the sandbox's) is the `static` source. */
const staticWhenOperatorRates = (config: PortSettings): string | undefined =>
  !config.SANDBOX && config.FX_RATES && config.FX_RATES !== DEFAULT_FX_RATES ? 'static' : undefined;

/** Every port, keyed by the variable that chooses its adapter. */
export const PORTS = {
  PAYOUT_RAIL: {
    title: 'payout rail',
    adapters: { sandbox: 'sandbox', none: 'none', 'modern-treasury': 'real' },
    productionDefault: 'none',
  },
  CARD_ISSUER: {
    title: 'card issuer',
    adapters: { sandbox: 'sandbox', none: 'none' },
    productionDefault: 'none',
  },
  STABLECOIN_PROVIDER: {
    title: 'stablecoin provider',
    adapters: { sandbox: 'sandbox', none: 'none' },
    productionDefault: 'none',
  },
  BANK_LINK_PROVIDER: {
    title: 'bank account linking (Plaid)',
    adapters: { sandbox: 'sandbox', none: 'none' },
    productionDefault: 'none',
  },
  KYC_PROVIDER: {
    title: 'KYC provider',
    adapters: { sandbox: 'sandbox', none: 'none' },
    productionDefault: 'none',
  },
  EMAIL_TRANSPORT: {
    title: 'email',
    adapters: { sandbox: 'sandbox', none: 'none', hook: 'real', smtp: 'real' },
    productionDefault: 'none',
    defaultFor: hookWhenConfigured,
  },
  SMS_TRANSPORT: {
    title: 'SMS',
    adapters: { sandbox: 'sandbox', none: 'none', hook: 'real', twilio: 'real' },
    productionDefault: 'none',
    defaultFor: hookWhenConfigured,
  },
  RATE_SOURCE: {
    title: 'exchange rates',
    adapters: { sandbox: 'sandbox', none: 'none', static: 'real', ecb: 'real' },
    productionDefault: 'none',
    defaultFor: staticWhenOperatorRates,
  },
  DOCUMENT_STORE: {
    title: 'document storage',
    adapters: { database: 'real', none: 'none' },
    productionDefault: 'database',
  },
} as const satisfies Record<string, PortSpec>;

export type PortVariable = keyof typeof PORTS;
export const PORT_VARIABLES = Object.keys(PORTS) as PortVariable[];
export type AdapterOf<V extends PortVariable> = keyof (typeof PORTS)[V]['adapters'] & string;

/**
 * The adapter a port runs: the variable's value, else the port's own default (`defaultFor`), else
 * the mode's: `sandbox` with SANDBOX=true (when the port has one), the production default otherwise.
 */
export function portAdapter<V extends PortVariable>(config: PortConfig, variable: V): AdapterOf<V> {
  const spec: PortSpec = PORTS[variable];
  const chosen = config[variable];
  if (chosen) return chosen as AdapterOf<V>;
  const own = spec.defaultFor?.(config);
  if (own) return own as AdapterOf<V>;
  if (config.SANDBOX) return ('sandbox' in spec.adapters ? 'sandbox' : spec.productionDefault) as AdapterOf<V>;
  return spec.productionDefault as AdapterOf<V>;
}

export function adapterKind(variable: PortVariable, adapter: string): AdapterKind {
  return (PORTS[variable].adapters as Record<string, AdapterKind>)[adapter];
}

/** Every port's adapter and kind: the boot log line and the operator route `GET /console/api/ports`. */
export function portSummary(
  config: PortConfig,
): { port: PortVariable; title: string; adapter: string; kind: AdapterKind }[] {
  return PORT_VARIABLES.map((port) => {
    const adapter = portAdapter(config, port);
    return { port, title: PORTS[port].title, adapter, kind: adapterKind(port, adapter) };
  });
}

/** Fail closed: with SANDBOX=false, each port bound to a sandbox adapter is a problem naming its variable. */
export function portProblems(config: PortConfig): string[] {
  if (config.SANDBOX) return [];
  return portSummary(config)
    .filter((p) => p.kind === 'sandbox')
    .map(
      (p) =>
        `${p.port}=${p.adapter}: the sandbox ${p.title} cannot run with SANDBOX=false (choose a real adapter or none; see docs/production.md)`,
    );
}

/** Port variable -> the adapter it runs, in `PORTS` order (the boot log line's `ports`). */
export function portAdapters(config: PortConfig): Record<PortVariable, string> {
  return Object.fromEntries(portSummary(config).map((p) => [p.port, p.adapter])) as Record<PortVariable, string>;
}

/** The start's warning when `SANDBOX=true` runs on PostgreSQL (allowed, never silently). */
export const SANDBOX_ON_DATABASE_WARNING =
  'SANDBOX=true with DATABASE_URL: this deployment simulates the outside world (sandbox adapters, magic values, /sandbox/* routes); no money or message leaves it. Set SANDBOX=false for production (docs/production.md)';
