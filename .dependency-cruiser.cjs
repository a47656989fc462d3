/**
 * The import rules of DESIGN.md §2, enforced by `npm run lint` (docs/decisions/0062-console-layers.md).
 *
 *   domain ← contract ← machines ← src;   domain, contract ← server;   tests and bench may import anything.
 *   Inside src:  kernel ← components ← features ← app (the shell);   features never import each other.
 *
 * Type-only imports count: a type import couples two layers as much as a value import does.
 * Dynamic imports (`React.lazy`) count too, for the layers and for cycles.
 */

const { readdirSync } = require('node:fs');
const { join } = require('node:path');

/** Folders under server/ that are machinery, not areas: the HTTP layer, the database, the seed. */
const SERVER_MACHINERY = ['http', 'db', 'seed'];
/**
 * The server's areas, read from its folders: an area made tomorrow is guarded by the rules below the day
 * it is made, without editing this file.
 */
const SERVER_AREAS = readdirSync(join(__dirname, 'server'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !SERVER_MACHINERY.includes(entry.name))
  .map((entry) => entry.name);
const AREA = `^server/(${SERVER_AREAS.join('|')})/`;
const BUSINESS_AREA = `^server/(${SERVER_AREAS.filter((area) => area !== 'platform').join('|')})/`;

/** Console modules every feature may use (besides machines/, contract/, domain/ and npm packages). */
const SHARED = '^src/(kernel|components|api|i18n|lib)/';
/** npm packages the banking core may use: pure code, no I/O (what domain/ imports today). */
const DOMAIN_PACKAGES = ['ibantools', 'fflate', 'papaparse'];
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-src-from-outside',
      comment:
        'The console (src/) is imported by nothing outside itself but tests/ and bench/: machines, contract, domain and server must not depend on it.',
      severity: 'error',
      from: { pathNot: ['^src/', '^tests/', '^bench/'] },
      to: { path: '^src/' },
    },
    {
      name: 'no-server-from-outside',
      comment:
        'The API (server/) is imported by nothing outside itself but tests/ and bench/: the console talks to it over HTTP, through contract/.',
      severity: 'error',
      from: { pathNot: ['^server/', '^tests/', '^bench/'] },
      to: { path: '^server/' },
    },
    {
      name: 'domain-is-pure',
      comment: `domain/ imports only domain/ and the pure npm packages listed in .dependency-cruiser.cjs (${DOMAIN_PACKAGES.join(', ')}): no I/O, no React, no database, no Node built-ins.`,
      severity: 'error',
      from: { path: '^domain/' },
      to: {
        pathNot: ['^domain/', ...DOMAIN_PACKAGES.map((name) => `^node_modules/${name}/`)],
      },
    },
    {
      name: 'contract-only-zod-and-domain',
      comment: 'contract/ (the wire schemas) imports only zod, domain/ and itself.',
      severity: 'error',
      from: { path: '^contract/' },
      to: { pathNot: ['^contract/', '^domain/', '^node_modules/zod/'] },
    },
    {
      name: 'contract-statuses-zod-free',
      comment:
        'contract/statuses.ts, limits.ts and refusal-codes.ts are the contract modules the console imports at run time: no zod in them.',
      severity: 'error',
      from: { path: '^contract/(statuses|limits|refusal-codes)\\.ts$' },
      to: { path: '^node_modules/zod/' },
    },
    {
      name: 'console-takes-contract-types',
      comment:
        'The console imports contract/ schemas as types only (z.infer), so zod stays out of its bundle; only the zod-free contract/statuses.ts, limits.ts and refusal-codes.ts are imported at run time.',
      severity: 'error',
      from: { path: '^src/' },
      to: {
        path: '^contract/',
        pathNot: '^contract/(statuses|limits|refusal-codes)\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'http-reaches-only-platform-leaves',
      comment:
        'server/http/ knows no area service: it may reach only the platform leaves it is built on (sessions, refusal codes, stored files, the mutation Actor, client addresses, how an error may be logged) — docs/decisions/0061.',
      severity: 'error',
      from: { path: '^server/http/', pathNot: '^server/http/context\\.ts$' },
      to: {
        path: AREA,
        pathNot:
          '^server/platform/(sessions|refusal|mutation|client-addresses|describe-error|files/store|files/storage)\\.ts$',
      },
    },
    {
      name: 'http-context-types-its-dependencies-only',
      comment:
        'server/http/context.ts may name an area service it carries in the request dependencies, as a type only (no code of the area runs in the HTTP layer).',
      severity: 'error',
      from: { path: '^server/http/context\\.ts$' },
      to: { path: AREA, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'only-route-modules-import-http',
      comment:
        'Inside an area only the route modules (…routes.ts) import server/http/: services and queries raise Refusal codes, never HTTP statuses (docs/decisions/0061).',
      severity: 'error',
      from: { path: AREA, pathNot: 'routes\\.ts$' },
      to: { path: '^server/http/' },
    },
    {
      name: 'seed-imports-no-area-service',
      comment:
        'The seed (server/seed/) writes rows directly: business rules come from domain/, statuses from contract/, files and passwords from server/platform/ — never an area service (users, cases, finance).',
      severity: 'error',
      from: { path: '^server/seed/' },
      to: { path: [BUSINESS_AREA, '^server/http/'] },
    },
    {
      name: 'db-imports-no-server-module',
      comment:
        'server/db/ (the client, migrations, the list engine) is the floor of the server: it imports no other server module but the Refusal leaf.',
      severity: 'error',
      from: { path: '^server/db/' },
      // The list engine refuses a bad cursor with the platform's Refusal, a leaf that imports nothing.
      to: { path: '^server/', pathNot: ['^server/db/', '^server/platform/refusal\\.ts$'] },
    },
    {
      name: 'platform-imports-no-business-area',
      comment:
        'server/platform/ is what every area stands on (sessions, audit, files, mutation): it never imports an area (users, cases, finance, statements, …).',
      severity: 'error',
      from: { path: '^server/platform/' },
      to: { path: BUSINESS_AREA },
    },
    {
      name: 'machines-no-react-no-src',
      comment:
        'machines/ (XState v5) holds no React and no console code: the console provides effects with .provide() (decision 0020).',
      severity: 'error',
      from: { path: '^machines/' },
      to: {
        path: [
          '^src/',
          '^node_modules/(react|react-dom|@xstate/react|scheduler)/',
          '^node_modules/@types/react',
        ],
      },
    },
    {
      name: 'no-feature-to-feature',
      comment:
        "A feature (src/features/<area>/) never imports another feature's modules: what two areas share moves to src/components, src/kernel or src/api, or the shell passes it in (a slot prop).",
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/', pathNot: '^src/features/$1/' },
    },
    {
      name: 'feature-not-to-shell',
      comment:
        'Features import only shared modules (src/kernel, src/components, src/api, src/i18n, src/lib), machines, contract and domain; the shell (src/app, src/main.tsx) imports features, never the reverse.',
      severity: 'error',
      from: { path: '^src/features/' },
      to: { path: ['^src/app/', '^src/main\\.tsx$'] },
    },
    {
      name: 'shared-not-to-shell-or-features',
      comment:
        'Shared console modules (src/kernel, src/components, src/api, src/i18n, src/lib) import neither the shell (src/app, src/main.tsx) nor a feature.',
      severity: 'error',
      from: { path: SHARED },
      to: { path: ['^src/app/', '^src/features/', '^src/main\\.tsx$'] },
    },
    {
      name: 'kernel-not-to-components',
      comment: 'The kernel sits below the shared UI: src/components may import src/kernel, not the reverse.',
      severity: 'error',
      from: { path: '^src/kernel/' },
      to: { path: '^src/components/' },
    },
    {
      name: 'no-circular',
      comment:
        'No import cycles (lazy imports included): split the module or move the shared part down a layer.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript compiler API, which dependency-cruiser's tsc parser needs; swc parses
    // TS/TSX and reports type-only imports too (so `tsPreCompilationDeps`, a tsc option, is not set).
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: ['node_modules'] },
    // What .gitignore leaves out (build output, data, the tests' scratch folder .tmp/) and git's folder;
    // node_modules is not followed (above) but stays visible, so rules can name packages.
    exclude: { path: ['(^|/)dist/', '^data/', '^coverage/', '^\\.tmp/', '^\\.git/'] },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
