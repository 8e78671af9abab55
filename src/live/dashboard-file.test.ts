import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dashboardFileOf, findDashboard, removeDashboardFile, writeDashboardFile } from './dashboard-file.js';

describe('the dashboard file beside the journal', () => {
  const journal = (): string => join(mkdtempSync(join(tmpdir(), 'tradeloop-dash-')), 'journal.sqlite');

  it('is written whole (no temporary file left), found while its pid lives, stale once it is gone', () => {
    const j = journal();
    const info = { url: 'http://127.0.0.1:4321/', pid: 4242, startedAt: '2026-01-01T00:00:00.000Z', journal: j };
    expect(writeDashboardFile(info)).toBe(dashboardFileOf(j));
    expect(readdirSync(join(j, '..'))).toEqual(['journal.sqlite.dashboard.json']);
    expect(JSON.parse(readFileSync(dashboardFileOf(j), 'utf8'))).toEqual(info);
    expect(findDashboard(j, () => true)).toEqual({ kind: 'running', file: dashboardFileOf(j), info });
    expect(findDashboard(j, () => false)).toEqual({ kind: 'stale', file: dashboardFileOf(j), info });
  });

  it('is removed only by the process it names; a missing or foreign file is said', () => {
    const j = journal();
    expect(findDashboard(j).kind).toBe('none');
    writeDashboardFile({ url: 'http://127.0.0.1:1/', pid: 4242, startedAt: 'x', journal: j });
    removeDashboardFile(j, 4243);
    expect(existsSync(dashboardFileOf(j))).toBe(true);
    removeDashboardFile(j, 4242);
    expect(existsSync(dashboardFileOf(j))).toBe(false);
    writeDashboardFile({ url: 'http://127.0.0.1:1/', pid: 1, startedAt: 'x', journal: j });
    expect(findDashboard(j, () => true).kind).toBe('running');
  });
});
