/** Defaults of the exchange-rate settings (`FX_RATES`, `ECB_RATES_URL`), shared by the config and the RATE_SOURCE port's default rule. */

/** FX_RATES' default: the sandbox's rate table (units per 1 USD). */
export const DEFAULT_FX_RATES =
  'EUR=0.92,GBP=0.79,CAD=1.37,MXN=17.2,BRL=5.4,INR=92.5,JPY=150,PHP=58,NGN=1550,USDC=1,BTC=0.000011';

/** The ECB's daily euro foreign exchange reference rates (ECB_RATES_URL's default). */
export const ECB_DAILY_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';
