// ESLint over the inference page's JavaScript (src/main/web/page), run by Maven before the tests (pom.xml, eslint-page):
// ESLint's recommended rules (no-undef and no-unused-vars among them) on browser ES modules, and on the relay, a shared
// worker's classic script. A browser may lack what the page feature-tests (typeof Float16Array), so such a name is
// declared here rather than by a newer ecmaVersion, which would also let through syntax older browsers cannot parse.
import js from '@eslint/js';
import globals from 'globals';

const PAGE = 'src/main/web/page';

export default [
  { ignores: ['target/**'] },
  { files: [`${PAGE}/**/*.mjs`, `${PAGE}/**/*.js`], ...js.configs.recommended },
  {
    files: [`${PAGE}/**/*.mjs`, `${PAGE}/**/*.js`],
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
];
