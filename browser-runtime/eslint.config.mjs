// ESLint over the browser JavaScript Accelbridge serves, run by Maven from the repository's root before browser-runtime's
// tests (pom.xml, eslint-browser-scripts): the inference page (browser-runtime/src/main/web/page), the dashboard's scripts
// (tools), the chart views the report inlines and the dashboard serves (reports), and the observer put into a user's page. ESLint's recommended rules (no-undef
// and no-unused-vars among them); the page's ES modules and the relay, a shared worker's classic script; the dashboard's and
// the report's classic scripts. A browser may lack what the page feature-tests (typeof Float16Array), so such a name is
// declared here rather than by a newer ecmaVersion, which would also let through syntax older browsers cannot parse.
import js from '@eslint/js';
import globals from 'globals';

const PAGE = 'browser-runtime/src/main/web/page';
const DASHBOARD = 'tools/src/main/resources/dev/accelbridge/tools/dashboard/web';
const VIEWS = 'reports/src/main/resources/dev/accelbridge/reports/render';
const OBSERVER = 'browser-runtime/src/main/resources/dev/accelbridge/browser/observe';
const ALL = [`${PAGE}/**/*.mjs`, `${PAGE}/**/*.js`, `${DASHBOARD}/*.js`, `${VIEWS}/*.js`, `${OBSERVER}/*.js`];

export default [
  { ignores: ['**/target/**', '**/node_modules/**'] },
  { files: ALL, ...js.configs.recommended },
  {
    files: ALL,
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    // an error the page means to ignore says so in a comment, not by a name
    rules: { 'no-unused-vars': ['error', { caughtErrors: 'none', ignoreRestSiblings: true }] },
  },
  {
    files: [`${PAGE}/**/*.mjs`],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.browser, Float16Array: 'readonly' } },
  },
  {
    files: [`${PAGE}/**/*.js`],
    languageOptions: { ecmaVersion: 2022, sourceType: 'script', globals: globals.sharedWorker },
  },
  {
    files: [`${DASHBOARD}/*.js`, `${VIEWS}/*.js`, `${OBSERVER}/*.js`],
    languageOptions: { ecmaVersion: 2022, sourceType: 'script', globals: { ...globals.browser, echarts: 'readonly' } },
  },
];
