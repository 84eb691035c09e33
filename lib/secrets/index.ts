import "server-only";
export { DEFAULT_SECRET_KEY_FILE, deriveKey, getSecretKey, parseSecretKey } from "./key";
export { decryptSecret, encryptSecret } from "./encrypt";
export { hostSecretValues, longestSecretForm, MIN_SECRET_LENGTH, scrubJson, scrubSecrets, SECRET_MASK, secretForms, secretMasker } from "./scrub";
