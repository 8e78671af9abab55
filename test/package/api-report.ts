/**
 * The public API report: what `tradeloop` and `tradeloop/testkit` export, every declaration a plugin
 * author can reach from them, rolled up by API Extractor into api/*.api.md. The test compares a fresh
 * report with the committed one, so the surface cannot change by accident; `npm run api:update`
 * rewrites the reports when it changes on purpose (review the diff like code).
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from '@microsoft/api-extractor';

const ROOT = resolve(import.meta.dirname, '../..');

/** The package's entries: export subpath → declaration file (from src/) and report name. */
export const ENTRIES = [
  { subpath: 'tradeloop', source: 'src/index', report: 'tradeloop' },
  { subpath: 'tradeloop/testkit', source: 'src/testkit', report: 'tradeloop-testkit' },
] as const;

export interface ApiCheck {
  readonly report: string;
  /** True when the fresh report differs from the committed one (with `write`, it was rewritten). */
  readonly changed: boolean;
  readonly errors: readonly string[];
}

/** Builds the declarations into a temporary folder and runs API Extractor on each entry. */
export function checkApi(options: { readonly write: boolean }): ApiCheck[] {
  // a fixed folder inside the project: the report names the files its warnings are about
  const out = join(ROOT, '.tradeloop', 'api-dts');
  rmSync(out, { recursive: true, force: true });
  try {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    execFileSync(
      process.execPath,
      [
        tsc,
        '-p',
        join(ROOT, 'tsconfig.build.json'),
        '--outDir',
        out,
        '--emitDeclarationOnly',
        '--declarationMap',
        'false',
        '--sourceMap',
        'false',
      ],
      { stdio: 'pipe' },
    );
    return ENTRIES.map((entry) => {
      const errors: string[] = [];
      const config = ExtractorConfig.prepare({
        configObject: {
          projectFolder: ROOT,
          mainEntryPointFilePath: join(out, `${entry.source}.d.ts`),
          compiler: {
            overrideTsconfig: {
              compilerOptions: {
                module: 'NodeNext',
                moduleResolution: 'NodeNext',
                target: 'ES2022',
                lib: ['ES2023'],
                strict: true,
                skipLibCheck: true,
                types: ['node'],
              },
              files: [join(out, `${entry.source}.d.ts`)],
            },
          },
          apiReport: {
            enabled: true,
            reportFileName: entry.report,
            reportFolder: join(ROOT, 'api'),
            reportTempFolder: join(out, 'report'),
          },
          docModel: { enabled: false },
          dtsRollup: { enabled: false },
          tsdocMetadata: { enabled: false },
          messages: {
            compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
            extractorMessageReporting: {
              default: { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
              'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
              'ae-undocumented': { logLevel: ExtractorLogLevel.None },
            },
            tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
          },
        },
        configObjectFullPath: undefined,
        packageJsonFullPath: join(ROOT, 'package.json'),
      });
      const result = Extractor.invoke(config, {
        localBuild: options.write,
        showVerboseMessages: false,
        messageCallback: (m: ExtractorMessage) => {
          if (m.logLevel === ExtractorLogLevel.Error) errors.push(m.text);
          m.handled = true;
        },
      });
      return { report: `api/${entry.report}.api.md`, changed: result.apiReportChanged, errors };
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const write = process.argv.includes('--write');
  for (const r of checkApi({ write })) {
    for (const e of r.errors) process.stderr.write(`${r.report}: ${e}\n`);
    process.stdout.write(
      `${r.report}: ${r.changed ? (write ? 'rewritten' : 'CHANGED (run npm run api:update and review the diff)') : 'unchanged'}\n`,
    );
  }
}
