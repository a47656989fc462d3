import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The import rules `npm run lint` enforces (.dependency-cruiser.cjs), tried on probe modules written into the
 * real tree: a wrong import must be refused by name, a right one must pass, and a server area created today
 * must be guarded without editing the configuration.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const probe = `zz-layer-probe-${process.pid}`;
const newArea = `server/${probe}-area`;

const probes: Record<string, string> = {
  [`server/statements/${probe}.ts`]: "import '../http/routes';\n",
  [`server/statements/${probe}-routes.ts`]: "import '../http/routes';\n",
  [`server/seed/${probe}.ts`]: "import '../statements/files';\n",
  [`server/db/${probe}.ts`]: "import '../platform/audit';\n",
  [`server/platform/${probe}.ts`]: "import '../finance/settlements';\n",
  [`server/http/${probe}.ts`]: "import '../statements/files';\n",
  [`${newArea}/service.ts`]: "import '../http/routes';\n",
};

let result: ICruiseResult;

beforeAll(async () => {
  mkdirSync(join(root, newArea), { recursive: true });
  for (const [path, text] of Object.entries(probes)) writeFileSync(join(root, path), text);
  // Loaded after the new area's folder exists: the configuration reads the areas from server/'s folders.
  const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs'));
  const cruised = await cruise(Object.keys(probes), {
    ...config.options,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    baseDir: root,
  });
  result = cruised.output as ICruiseResult;
}, 60_000);

afterAll(() => {
  for (const path of Object.keys(probes)) rmSync(join(root, path), { force: true });
  rmSync(join(root, newArea), { recursive: true, force: true });
});

const violationsOf = (from: string) =>
  result.summary.violations.filter((v) => v.from === from).map((v) => `${v.rule.name} → ${v.to}`);

describe('the import layers of DESIGN.md §2, as npm run lint checks them', () => {
  it('refuses a statements service importing the HTTP layer; its route module may', () => {
    expect(violationsOf(`server/statements/${probe}.ts`)).toEqual([
      'only-route-modules-import-http → server/http/routes.ts',
    ]);
    expect(violationsOf(`server/statements/${probe}-routes.ts`)).toEqual([]);
  });

  it('refuses the seed importing an area, the database floor importing the platform, the platform an area', () => {
    expect(violationsOf(`server/seed/${probe}.ts`)).toEqual([
      'seed-imports-no-area-service → server/statements/files.ts',
    ]);
    expect(violationsOf(`server/db/${probe}.ts`)).toEqual([
      'db-imports-no-server-module → server/platform/audit.ts',
    ]);
    expect(violationsOf(`server/platform/${probe}.ts`)).toEqual([
      'platform-imports-no-business-area → server/finance/settlements.ts',
    ]);
  });

  it('refuses the HTTP layer importing an area service', () => {
    expect(violationsOf(`server/http/${probe}.ts`)).toEqual([
      'http-reaches-only-platform-leaves → server/statements/files.ts',
    ]);
  });

  it('guards a server area made today, without editing the configuration', () => {
    expect(violationsOf(`${newArea}/service.ts`)).toEqual([
      'only-route-modules-import-http → server/http/routes.ts',
    ]);
  });
});
