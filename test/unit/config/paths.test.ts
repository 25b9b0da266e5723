import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { arborHome, projectConfigPath, userConfigPath } from '../../../src/config/paths.js';

describe('arborHome', () => {
  it('uses ARBOR_HOME when set', () => {
    expect(arborHome({ ARBOR_HOME: '/srv/arbor', HOME: '/home/u' })).toBe('/srv/arbor');
  });
  it('expands a leading ~ and resolves relative paths', () => {
    expect(arborHome({ ARBOR_HOME: '~/state', HOME: '/home/u' })).toBe('/home/u/state');
    expect(arborHome({ ARBOR_HOME: 'rel', HOME: '/home/u' })).toBe(resolve('rel'));
  });
  it('falls back to ~/.arbor when unset or blank', () => {
    expect(arborHome({ HOME: '/home/u' })).toBe('/home/u/.arbor');
    expect(arborHome({ ARBOR_HOME: ' ', HOME: '/home/u' })).toBe('/home/u/.arbor');
  });
  it('config file locations', () => {
    expect(userConfigPath({ ARBOR_HOME: '/srv/arbor' })).toBe(join('/srv/arbor', 'config.toml'));
    expect(projectConfigPath('/work/p')).toBe(join('/work/p', '.arbor', 'config.toml'));
  });
});
