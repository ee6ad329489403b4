import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, type Provider } from '@nestjs/common';
import { RealClock } from '../../common/clock.js';
import { PollingWorker } from '../../common/polling-worker.js';
import { AppConfig } from '../../config/app-config.js';
import { Runtime } from '../../config/config.module.js';
import { portAdapter } from '../../config/ports.js';
import { TransactionService } from '../../database/transaction.service.js';
import { ApiError } from '../../errors/api-error.js';
import { parseEcbDocument, type EcbRateSet } from './ecb-document.js';
import { ConfigRateProvider, RateProvider } from './fx-rates.service.js';
import { notConfigured } from '../../errors/not-configured.js';

const ECB = 'ecb';
/** How often every process re-reads the newest stored set (the worker fetches; everyone reads). */
const RELOAD_MS = 60_000;
/** The most an ECB fetch may take (a slow feed counts as unreachable). */
const FETCH_TIMEOUT_MS = 15_000;

/** `RATE_SOURCE=none`: no rates; cross-currency quotes and GET /exchange-rates answer 503. */
export class NoRateProvider extends RateProvider {
  currencies(): string[] {
    return [];
  }

  multiplier(): number | null {
    return null;
  }

  override assertUsable(): void {
    throw notConfigured(
      'RATE_SOURCE',
      'This deployment has no exchange rate source (RATE_SOURCE=none): only same-currency quotes can be priced',
    );
  }
}

/**
 * `RATE_SOURCE=ecb`: the ECB's daily euro reference rates, cross rates through EUR. The set in use
 * is the newest row of `exchange_rate_sets` (written by EcbRatesWorker), read at boot and every
 * minute by every process, never fetched in the request path, so every replica prices from the
 * same publication. Older than RATE_MAX_AGE_SECONDS (from its as-of time, on the real clock), or
 * none fetched yet: 503 SERVICE_UNAVAILABLE (details.maxAgeSeconds, details.asOf).
 */
@Injectable()
export class EcbRateProvider extends RateProvider implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EcbRateProvider');
  private set: EcbRateSet | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly tx: TransactionService,
    private readonly config: AppConfig,
  ) {
    super();
  }

  get active(): boolean {
    return portAdapter(this.config, 'RATE_SOURCE') === ECB;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.active) return;
    await this.reload().catch((error: unknown) => this.logger.error({ err: error }, 'exchange rates load failed'));
    this.timer = setInterval(() => {
      this.reload().catch((error: unknown) => this.logger.error({ err: error }, 'exchange rates load failed'));
    }, RELOAD_MS);
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Reads the newest stored ECB set into this process. */
  async reload(): Promise<void> {
    const [row] = await this.tx.run((m) =>
      m.query<{ as_of: Date; rates: Record<string, number> }[]>(
        `SELECT as_of, rates FROM exchange_rate_sets WHERE source = $1 ORDER BY as_of DESC LIMIT 1`,
        [ECB],
      ),
    );
    if (row) this.set = { asOf: new Date(row.as_of), perEur: row.rates };
  }

  /** When the set in use was published (null before the first). */
  asOf(): Date | null {
    return this.set?.asOf ?? null;
  }

  currencies(): string[] {
    return this.set ? ['EUR', ...Object.keys(this.set.perEur)] : [];
  }

  multiplier(from: string, to: string): number | null {
    if (from === to) return 1;
    const perEur = (code: string) => (code === 'EUR' ? 1 : this.set?.perEur[code]);
    const f = perEur(from);
    const t = perEur(to);
    if (f === undefined || t === undefined) return null;
    return t / f;
  }

  override assertUsable(now: Date): void {
    const maxAgeSeconds = this.config.RATE_MAX_AGE_SECONDS;
    if (!this.set)
      throw new ApiError('SERVICE_UNAVAILABLE', 'No exchange rates have been fetched from the ECB yet; retry later', {
        details: { source: ECB, asOf: null, maxAgeSeconds },
      });
    if (now.getTime() - this.set.asOf.getTime() > maxAgeSeconds * 1000)
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        `The newest exchange rates (ECB, ${this.set.asOf.toISOString()}) are older than ${maxAgeSeconds} seconds; retry later`,
        { details: { source: ECB, asOf: this.set.asOf.toISOString(), maxAgeSeconds } },
      );
  }

  override version(): string {
    return `${ECB}:${this.set?.asOf.toISOString() ?? 'none'}`;
  }
}

/**
 * On worker processes with RATE_SOURCE=ecb: fetches ECB_RATES_URL at boot and every
 * ECB_POLL_SECONDS, stores a new publication in `exchange_rate_sets` (a publication already stored
 * is left as it is) and reloads this process's set. A failed fetch (unreachable, not the ECB's
 * document) is logged and changes nothing: the last good set stays in use until it is stale.
 */
@Injectable()
export class EcbRatesWorker extends PollingWorker {
  private readonly logger = new Logger('EcbRatesWorker');
  private first: Promise<unknown> | null = null;

  constructor(
    private readonly tx: TransactionService,
    private readonly config: AppConfig,
    private readonly realClock: RealClock,
    private readonly provider: EcbRateProvider,
    private readonly runtime: Runtime,
  ) {
    super({
      runtime,
      intervalMs: config.ECB_POLL_SECONDS * 1000,
      logger: new Logger('EcbRatesWorker'),
      failure: 'ECB rates fetch failed',
    });
  }

  override onApplicationBootstrap(): void {
    if (!this.provider.active) return;
    super.onApplicationBootstrap();
    if (this.runtime.runWorker)
      this.first = this.runOnce().catch((error: unknown) =>
        this.logger.error({ err: error }, 'ECB rates fetch failed'),
      );
  }

  override async beforeApplicationShutdown(): Promise<void> {
    await super.beforeApplicationShutdown();
    await this.first;
  }

  /** One fetch: answers the publication's as-of time, or throws (nothing changed) when the fetch fails. */
  async runOnce(): Promise<Date> {
    const response = await fetch(this.config.ECB_RATES_URL, {
      headers: { accept: 'application/xml, text/xml' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`ECB_RATES_URL answered ${response.status}`);
    }
    const set = parseEcbDocument(await response.text());
    await this.tx.run((m) =>
      m.query(
        `INSERT INTO exchange_rate_sets (source, as_of, base, rates, fetched_at) VALUES ($1, $2, 'EUR', $3, $4)
           ON CONFLICT (source, as_of) DO NOTHING`,
        [ECB, set.asOf, JSON.stringify(set.perEur), this.realClock.now()],
      ),
    );
    await this.provider.reload();
    return set.asOf;
  }
}

/**
 * The RATE_SOURCE port's bindings (payments.module.ts): RateProvider is the adapter
 * `portAdapter(config, 'RATE_SOURCE')` chooses; the ECB provider and its worker are always registered and stay idle
 * unless it is `ecb`.
 */
export const RATE_SOURCE_PROVIDERS: Provider[] = [
  EcbRateProvider,
  EcbRatesWorker,
  {
    provide: RateProvider,
    inject: [AppConfig, EcbRateProvider],
    useFactory: (config: AppConfig, ecb: EcbRateProvider): RateProvider => {
      switch (portAdapter(config, 'RATE_SOURCE')) {
        case 'ecb':
          return ecb;
        case 'static':
        case 'sandbox':
          return new ConfigRateProvider(config);
        case 'none':
          return new NoRateProvider();
      }
    },
  },
];
