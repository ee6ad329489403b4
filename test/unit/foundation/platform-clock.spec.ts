import { ClockOffsets, enterPlatformClock, PlatformClock, repinPlatformClock } from '../../../src/common/clock.js';
import { requestContext } from '../../../src/logging/logger.js';
import { FakeClock } from '../../support/fake-clock.js';

class Offsets extends ClockOffsets {
  readonly values = new Map<string, number>();
  offsetMs(platformId: string): number {
    return this.values.get(platformId) ?? 0;
  }
}

const base = new FakeClock(new Date('2031-05-10T10:00:00.000Z'));
const clock = new PlatformClock(base);
const at = (offsetMs: number) => new Date(base.now().getTime() + offsetMs);

describe('PlatformClock (sandbox test clocks)', () => {
  it('is the base clock outside a request and for a request of a platform without a clock', () => {
    const offsets = new Offsets();
    expect(clock.now()).toEqual(base.now());
    requestContext.run({}, () => {
      enterPlatformClock(offsets, 'p');
      expect(requestContext.getStore()).not.toHaveProperty('clockOffsetMs');
      expect(clock.now()).toEqual(base.now());
    });
  });

  it("reads the platform's offset once, when the request enters it: a later advance does not change that request's time", () => {
    const offsets = new Offsets();
    offsets.values.set('p', 86_400_000);
    requestContext.run({}, () => {
      enterPlatformClock(offsets, 'p');
      expect(clock.now()).toEqual(at(86_400_000));
      offsets.values.set('p', 2 * 86_400_000);
      expect(clock.now()).toEqual(at(86_400_000));
      // The advance request itself moves on to its new time.
      repinPlatformClock(2 * 86_400_000);
      expect(clock.now()).toEqual(at(2 * 86_400_000));
    });
    // Another request (or another platform's) is not affected.
    requestContext.run({}, () => {
      enterPlatformClock(offsets, 'q');
      expect(clock.now()).toEqual(base.now());
    });
  });

  it('keeps running with the base clock, and does nothing without offsets (SANDBOX=false)', () => {
    const offsets = new Offsets();
    offsets.values.set('p', 1_000);
    requestContext.run({}, () => {
      enterPlatformClock(offsets, 'p');
      base.advance(5_000);
      expect(clock.now()).toEqual(at(1_000));
    });
    requestContext.run({}, () => {
      enterPlatformClock(null, 'p');
      expect(clock.now()).toEqual(base.now());
    });
  });
});
