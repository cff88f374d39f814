/**
 * The server's dependency rule (`pnpm lint` runs it; docs/dev/architecture.md explains it):
 * features import only `core/`, `platform/` and the contract, never each other; `core/` and `platform/`
 * never import a feature or the app; `core/` never imports `platform/` (the Platform interface is
 * core/platform/); and no module cycles anywhere.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'feature-to-feature',
      comment:
        'A feature imports only core/, platform/ and the contract. Shared code belongs in core/; work of another feature is reached through services.ports (core/ports.ts).',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/([^/]+)/', pathNot: '^src/features/$1/' },
    },
    {
      name: 'feature-to-app',
      comment: 'Features are mounted by the app (src/app/server.ts); they never import it.',
      severity: 'error',
      from: { path: '^src/features/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'core-to-features-or-app',
      comment: 'core/ is below every feature: it knows no feature and not the app.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(features|app)/' },
    },
    {
      name: 'core-to-platform',
      comment:
        'core/ never imports a platform: the Platform interface and its errors live in core/platform/, and each platform registers its own error mapping there (registerPlatformErrors).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/platform/' },
    },
    {
      name: 'platform-to-features-or-app',
      comment: 'The platform knows no feature and not the app.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(features|app)/' },
    },
    {
      name: 'no-circular',
      comment: 'No module cycles: a cycle makes load order matter and hides which side owns what.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.generated\\.ts$' },
  },
};
