import { XMLParser } from 'fast-xml-parser';

/** One publication of the ECB's euro foreign exchange reference rates. */
export interface EcbRateSet {
  /** The reference day at 14:00 UTC (the ECB publishes around 16:00 CET/CEST; the earlier bound). */
  asOf: Date;
  /** Units of each currency per 1 EUR (EUR itself absent). */
  perEur: Record<string, number>;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseAttributeValue: false,
  processEntities: false,
  isArray: (_name, jpath) => jpath === 'Envelope.Cube.Cube.Cube',
});

/**
 * Parses the ECB's `eurofxref-daily.xml` (gesmes envelope: `Cube > Cube[time] > Cube[currency, rate]`).
 * Throws on anything else (an HTML error page, a missing day, a malformed rate): the caller keeps
 * the last good set.
 */
export function parseEcbDocument(xml: string): EcbRateSet {
  const doc = parser.parse(xml) as {
    Envelope?: { Cube?: { Cube?: { time?: string; Cube?: { currency?: string; rate?: string }[] } } };
  };
  const day = doc.Envelope?.Cube?.Cube;
  if (!day?.time || !/^\d{4}-\d{2}-\d{2}$/.test(day.time)) throw new Error('not an ECB reference rates document');
  const perEur: Record<string, number> = {};
  for (const cube of day.Cube ?? []) {
    const rate = Number(cube.rate);
    if (!cube.currency || !/^[A-Z]{3}$/.test(cube.currency) || !(rate > 0) || !Number.isFinite(rate))
      throw new Error(`malformed rate in the ECB document: ${JSON.stringify(cube).slice(0, 80)}`);
    perEur[cube.currency] = rate;
  }
  if (Object.keys(perEur).length === 0) throw new Error('the ECB document lists no rates');
  const asOf = new Date(`${day.time}T14:00:00Z`);
  if (Number.isNaN(asOf.getTime())) throw new Error('not an ECB reference rates document');
  return { asOf, perEur };
}
