import { UmaRates } from '../../../src/uma/uma-currencies.js';
import { isUmaAddress } from '../../../src/uma/uma-domain.js';

describe('UmaRates (millisatoshi multipliers from FX_RATES)', () => {
  const rates = new UmaRates('EUR=0.92,JPY=150,BTC=0.000011');

  it('publishes msats per minor unit: 1 USD = 0.000011 BTC = 1,100,000 msats, so a cent is 11,000', () => {
    expect(rates.msatsPerMinorUnit('USD')).toBeCloseTo(11_000, 6);
    expect(rates.msatsPerMinorUnit('JPY')).toBeCloseTo(1_100_000 / 150, 6); // no minor unit
    expect(rates.msatsPerMinorUnit('XYZ')).toBeNull();
  });

  it("turns a receiver's multiplier back into the table's rate", () => {
    expect(rates.estimatedRate('USD', rates.msatsPerMinorUnit('EUR')!, 2)).toBeCloseTo(0.92, 8);
    expect(rates.estimatedRate('EUR', rates.msatsPerMinorUnit('JPY')!, 0)).toBeCloseTo(150 / 0.92, 4);
    expect(rates.estimatedRate('XYZ', 1000, 2)).toBeNull();
    expect(rates.estimatedRate('USD', 0, 2)).toBeNull();
  });
});

describe('isUmaAddress', () => {
  it.each([
    ['$bob@localhost:8081', true],
    ['$bob@pay.example.com', true],
    ['$bob.smith+x@pay.example.com', true],
    ['bob@pay.example.com', false],
    ['$bob@', false],
    ['$bob@pay.example.com:port', false],
    ['$b@o@b.com', false],
    [`$${'a'.repeat(65)}@x.com`, false],
  ])('%s: %s', (address, valid) => {
    expect(isUmaAddress(address)).toBe(valid);
  });
});
