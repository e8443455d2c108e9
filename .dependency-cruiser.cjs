/**
 * The code's boundaries, checked by `npm run lint:boundaries` (in `npm run lint`, so in npm test).
 * Every rule is an error: nothing breaks them today. See docs/ARCHITECTURE.md and ADR 0028.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Files depend on each other one way: a cycle means two of them are one, or a piece belongs elsewhere.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-feature-cycles',
      severity: 'error',
      scope: 'folder',
      comment: 'Server modules and browser features depend on each other one way.',
      from: { path: '^apps/(server/src/modules|web/src/features)/' },
      to: { circular: true },
    },
    {
      name: 'modules-through-index',
      severity: 'error',
      comment: 'A server module is used through its index.ts, which names what it offers; its repository (its SQL), services and routes are its own.',
      from: { path: '^apps/server/src/(modules/([^/]+)/|(?!modules/))' },
      to: { path: '^apps/server/src/modules/[^/]+/', pathNot: ['^apps/server/src/modules/$2/', '^apps/server/src/modules/[^/]+/index[.]ts$'] },
    },
    {
      name: 'foundations-below-features',
      severity: 'error',
      comment: 'The database, infrastructure and helpers know nothing of the features built on them.',
      from: { path: '^apps/server/src/(db|infra|lib)/' },
      to: { path: '^apps/server/src/(modules|collab|cli)/' },
    },
    {
      name: 'web-shared-below-features',
      severity: 'error',
      comment: "The browser app's shared pieces (lib, components/ui) know nothing of its features.",
      from: { path: '^apps/web/src/(lib|components)/' },
      to: { path: '^apps/web/src/(features|app)/' },
    },
    {
      name: 'packages-below-apps',
      severity: 'error',
      comment: 'Shared packages are used by the apps, never the other way round.',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'apps-apart',
      severity: 'error',
      comment: 'The browser app, the server and the provider share code only through packages/.',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/([^/]+)/', pathNot: '^apps/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|/dist/|[.]test[.]tsx?$|/testing/)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
