import { describeStartupError } from '../../../src/common/startup-error.js';
import { ConfigError } from '../../../src/config/app-config.js';
import { EmbeddedLockedError } from '../../../src/database/embedded-lock.js';

/** Issue 10 item 11: a failed start prints its real cause, never "[object Object]". */
describe('describeStartupError', () => {
  it('prints a thrown plain object with its members', () => {
    const text = describeStartupError({ name: 'ExitStatus', status: 1, message: 'Program terminated' });
    expect(text).not.toContain('[object Object]');
    expect(text).toContain('ExitStatus');
    expect(text).toContain('Program terminated');
    expect(text).toContain('status: 1');
  });

  it('prints an Error with its stack and cause', () => {
    const error = new Error('could not open the data dir', { cause: new Error('EACCES: permission denied') });
    const text = describeStartupError(error);
    expect(text).toContain('could not open the data dir');
    expect(text).toContain('EACCES: permission denied');
    expect(text).toMatch(/\n\s+at /); // the stack
  });

  it('prints errors that explain themselves as their message alone', () => {
    expect(describeStartupError(new ConfigError(['PORT="x": must be an integer']))).toBe(
      'Invalid configuration:\n  - PORT="x": must be an integer',
    );
    expect(describeStartupError(new EmbeddedLockedError('in use by process 7'))).toBe('in use by process 7');
    expect(describeStartupError('a string')).toBe('a string');
  });
});
