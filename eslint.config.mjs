// ESLint flat config: the browser modules (docs/assets/js), the build tools (tools/*.mjs) and the
// Node tests and scripts (tests/node, tests/js, bench). `make lint` runs it; versions pinned in package.json.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["site/**", "build/**", "node_modules/**", ".venv/**", "docs/assets/js/boot/runtime.mjs"] },
  js.configs.recommended,
  {
    files: ["docs/assets/js/**/*.mjs"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.browser, ...globals.worker } },
  },
  {
    files: ["tools/**/*.mjs", "bench/**/*.mjs", "tests/node/**/*.mjs", "tests/js/**/*.mjs", "eslint.config.mjs"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.node } },
  },
  {
    // scripts the browser tests evaluate in a page (page.evaluate / add_script_tag)
    files: ["tests/e2e/**/*.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "script", globals: { ...globals.browser } },
  },
  {
    // the service worker template: tools/build_site.py replaces the __PLACEHOLDERS__
    files: ["tools/sw_template.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "script",
      globals: { ...globals.serviceworker, __BUILD__: "readonly", __CACHES__: "readonly" },
    },
  },
  {
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
];
