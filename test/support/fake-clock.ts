import { type BusinessTime, type RealTime, TimeSource } from '../../src/common/clock.js';

/** A clock the test moves by hand (starts at the real time, so signature timestamps stay fresh). */
export class FakeClock extends TimeSource {
  private current: number;

  constructor(start: Date = new Date()) {
    super();
    this.current = start.getTime();
  }

  now(): BusinessTime & RealTime {
    return new Date(this.current) as BusinessTime & RealTime;
  }

  set(at: Date): void {
    this.current = at.getTime();
  }

  advance(ms: number): Date {
    this.current += ms;
    return this.now();
  }
}
