/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API's origin, read at build time; `/v1` comes from the contract. */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
