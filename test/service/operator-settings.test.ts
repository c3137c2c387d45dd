import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../service/config.ts';

/** The operator's settings: flags win over variables, which win over defaults; a bad value is refused in words. */
describe('operator settings', () => {
  it('logs nothing unless a level is given, by flag or variable', () => {
    expect(parseConfig([], {}).config.logLevel).toBe('silent');
    expect(parseConfig(['--log-level', 'info'], {}).config.logLevel).toBe('info');
    expect(parseConfig(['--log-level=warn'], {}).config.logLevel).toBe('warn');
    expect(parseConfig([], { MARQUEE_LOG_LEVEL: 'debug' }).config.logLevel).toBe('debug');
    expect(parseConfig(['--log-level', 'error'], { MARQUEE_LOG_LEVEL: 'debug' }).config.logLevel).toBe('error');
  });

  it('refuses an unknown log level, naming the ones there are', () => {
    expect(() => parseConfig(['--log-level', 'loud'], {})).toThrow(
      /^invalid --log-level \(or MARQUEE_LOG_LEVEL\): loud \(one of fatal, error, warn, info, debug, trace, silent\)$/,
    );
  });

  it('keeps metrics on unless switched off, and takes a metrics token by flag or variable', () => {
    expect(parseConfig([], {}).config).toMatchObject({ metrics: true, metricsToken: undefined });
    expect(parseConfig(['--no-metrics'], {}).config.metrics).toBe(false);
    expect(parseConfig([], { MARQUEE_METRICS: '0' }).config.metrics).toBe(false);
    expect(parseConfig([], { MARQUEE_METRICS_TOKEN: 'sixteen-chars-or-more' }).config.metricsToken).toBe(
      'sixteen-chars-or-more',
    );
    expect(parseConfig(['--metrics-token', 'a-flag-token-that-is-long'], {}).config.metricsToken).toBe(
      'a-flag-token-that-is-long',
    );
  });

  it('refuses a metrics token short enough to guess, without echoing it', () => {
    let message = '';
    try {
      parseConfig([], { MARQUEE_METRICS_TOKEN: 'short1' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^invalid --metrics-token \(or MARQUEE_METRICS_TOKEN\): at least 16 characters/);
    expect(message).not.toContain('short1');
  });
});
