import "server-only";
export { deriveKey, getSecretKey, parseSecretKey } from "./key";
export { decryptSecret, encryptSecret } from "./encrypt";
export { hostSecretValues, scrubSecrets, SECRET_MASK, secretForms } from "./scrub";
