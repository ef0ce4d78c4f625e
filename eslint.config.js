// One lint config for the workspace; each package runs `eslint .` from its folder.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "**/dist-e2e/**",
      "**/node_modules/**",
      "**/generated/**",
      "**/test-results/**",
      "**/playwright-report/**",
      "**/.turbo/**",
      "bench/results/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      eqeqeq: ["error", "always"],
      "no-console": "off",
    },
  },
  {
    // The API's configuration is read in one place: env.ts parses the environment once and
    // everything else receives the typed Config. Tests, tools and the bench set up processes
    // of their own and may read it.
    files: ["apps/api/src/**/*.ts"],
    ignores: ["apps/api/src/env.ts", "apps/api/src/**/*.test.ts", "apps/api/src/test/**"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration in apps/api/src/env.ts (readConfig) and pass it in." },
      ],
    },
  },
  {
    // Layers: the pet operations and the data layer never reach up into the HTTP transport or
    // operations; what they share with those (HttpError, toErrorBody) lives in src/http-error.ts.
    files: ["apps/api/src/pets/**/*.ts", "apps/api/src/data/**/*.ts"],
    ignores: ["apps/api/src/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/http/**", "../http", "**/ops/**", "../ops", "**/app.js", "**/main.js"], message: "data/ and pets/ sit below http/ and ops/: move what both need below them (see src/http-error.ts)." },
          ],
        },
      ],
    },
  },
  {
    files: ["apps/web/src/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
);
