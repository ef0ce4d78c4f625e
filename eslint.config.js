// One lint config for the workspace; each package runs `eslint .` from its folder.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import apiLayers from "./apps/api/layers.json" with { type: "json" };
import webLayers from "./apps/web/layers.json" with { type: "json" };

/**
 * An app's layers (`<app>/layers.json`, top to bottom): each layer's files may not import from a layer above
 * them, so no folder cycle can form. Tests and test helpers are exempt. Both apps are held to theirs.
 */
function layerRules(app, { layers }) {
  const order = layers.map((layer) => layer.name).join(" > ");
  const importsOf = (layer) => [
    ...(layer.folders ?? []).flatMap((folder) => [`**/${folder}/**`, `../${folder}`, `./${folder}`]),
    ...(layer.files ?? []).map((file) => `**/${file.replace(/\.tsx?$/, ".js")}`),
  ];
  const sourcesOf = (layer) => [
    ...(layer.folders ?? []).map((folder) => `${app}/src/${folder}/**/*.{ts,tsx}`),
    ...(layer.files ?? []).map((file) => `${app}/src/${file}`),
  ];
  return layers.slice(1).map((layer, index) => ({
    files: sourcesOf(layer),
    ignores: [`${app}/src/**/*.test.{ts,tsx}`, `${app}/src/test/**`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: layers.slice(0, index + 1).flatMap(importsOf),
              message: `${app}/src layers, top to bottom: ${order}. "${layer.name}" may import only from its own layer or below (${app}/layers.json): move what both need down.`,
            },
          ],
        },
      ],
    },
  }));
}

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
      // Prettier breaks a long call before a computed member (`api()\n  [method](...)`), which this rule
      // reports; eslint-config-prettier turns it off for the same reason.
      "no-unexpected-multiline": "off",
      "no-console": "off",
    },
  },
  {
    // The API's configuration is read in one place: env.ts parses the environment once and
    // everything else receives the typed Config. Tests, tools and the bench set up processes
    // of their own and may read it.
    files: ["apps/api/src/**/*.ts"],
    ignores: ["apps/api/src/base/env.ts", "apps/api/src/**/*.test.ts", "apps/api/src/test/**"],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Read configuration in apps/api/src/base/env.ts (readConfig) and pass it in.",
        },
      ],
    },
  },
  ...layerRules("apps/api", apiLayers),
  ...layerRules("apps/web", webLayers),
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
