// The user's Ed25519 session signing key: `$CODEWHALE_HOME/keys/session-ed25519.pem` (PKCS#8
// PEM, mode 0600), created on first use, refused when another user could read or replace it.
// Also reads a shared public key file for `sessions verify --key`. Called by the CLI (exec,
// `sessions verify`, `key show`); the key itself never reaches a log or a request.
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  hash,
  type KeyObject,
} from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  type Stats,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { errorMessage, SigningKeyError } from "../errors.ts";

/** A public key checkpoints are checked against, and where it came from (for messages). */
export interface TrustedKey {
  publicKey: KeyObject;
  /** `SHA256:` and the unpadded base64 of the SHA-256 of the key's SPKI DER encoding. */
  fingerprint: string;
  source: string;
}

/** The user's own key pair. */
export interface SigningKey extends TrustedKey {
  privateKey: KeyObject;
}

export function signingKeyPath(home: string): string {
  return join(home, "keys", "session-ed25519.pem");
}

export function fingerprintOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: "spki", format: "der" });
  return `SHA256:${hash("sha256", der, "base64").replace(/=+$/, "")}`;
}

export function publicKeyPem(key: TrustedKey): string {
  return String(key.publicKey.export({ type: "spki", format: "pem" }));
}

/** The user's key, created (with its directory) when there is none yet. */
export function loadOrCreateSigningKey(home: string): SigningKey {
  const keys = join(home, "keys");
  const path = signingKeyPath(home);
  try {
    mkdirSync(keys, { recursive: true, mode: 0o700 });
    checkDirectories(home, keys);
    if (!exists(path)) createKeyFile(keys, path);
  } catch (error) {
    if (error instanceof SigningKeyError) throw error;
    throw new SigningKeyError(path, `cannot create the signing key (${describe(error)})`);
  }
  return readSigningKey(path);
}

/** The user's key when one exists (never creates it); null when there is none. */
export function loadSigningKey(home: string): SigningKey | null {
  const path = signingKeyPath(home);
  if (!exists(path)) return null;
  checkDirectories(home, join(home, "keys"));
  return readSigningKey(path);
}

/** A public key shared by `codewhale key show`: the PEM block is used, other lines ignored. */
export function readPublicKeyFile(path: string): TrustedKey {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new SigningKeyError(path, `cannot read the public key file (${describe(error)})`);
  }
  const block = /-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/.exec(text)?.[0];
  if (!block) throw new SigningKeyError(path, "no PEM public key block in the file");
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey(block);
  } catch {
    throw new SigningKeyError(path, "the PEM block is not a valid public key");
  }
  if (publicKey.asymmetricKeyType !== "ed25519") {
    throw new SigningKeyError(path, "not an Ed25519 public key");
  }
  return { publicKey, fingerprint: fingerprintOf(publicKey), source: path };
}

function exists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/**
 * `$CODEWHALE_HOME` and its `keys` directory must be the user's and not writable by anyone
 * else, or another user could swap the key; `keys` must be a real directory, not a symlink.
 */
function checkDirectories(home: string, keys: string): void {
  checkOwner(home, statSync(home));
  const stats = lstatSync(keys);
  if (!stats.isDirectory()) {
    throw new SigningKeyError(keys, "the key directory must be a directory, not a symlink");
  }
  checkOwner(keys, stats);
}

/** A directory on the key's path: the user's, and writable by nobody else. */
function checkOwner(path: string, stats: Stats): void {
  checkAccess(path, stats, 0o022, (mode) => {
    return `writable by other users (mode ${mode}), so the signing key could be replaced; run chmod go-w ${path}`;
  });
}

/** The key file: the user's, and readable and writable by nobody else (OpenSSH's rule). */
function checkKeyMode(path: string, stats: Stats): void {
  checkAccess(path, stats, 0o077, (mode) => {
    return `the signing key is accessible to other users (mode ${mode}); run chmod 600 ${path}`;
  });
}

function checkAccess(
  path: string,
  stats: Stats,
  forbidden: number,
  problem: (mode: string) => string,
): void {
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    throw new SigningKeyError(path, `owned by uid ${stats.uid}, not by you (uid ${uid})`);
  }
  if ((stats.mode & forbidden) !== 0) {
    throw new SigningKeyError(path, problem((stats.mode & 0o777).toString(8).padStart(4, "0")));
  }
}

/** Writes a new key to a temporary file, then links it into place: a racing run keeps its own. */
function createKeyFile(keys: string, path: string): void {
  const { privateKey } = generateKeyPairSync("ed25519");
  const pem = String(privateKey.export({ type: "pkcs8", format: "pem" }));
  const temporary = join(keys, `.session-ed25519.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(temporary, pem, { mode: 0o600, flag: "wx" });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/** Reads the key through a descriptor opened without following links, checked on that fd. */
function readSigningKey(path: string): SigningKey {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem = code === "ELOOP" ? "the signing key must not be a symlink" : describe(error);
    throw new SigningKeyError(path, problem);
  }
  let text: string;
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new SigningKeyError(path, "the signing key is not a regular file");
    checkKeyMode(path, stats);
    text = readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(text);
  } catch {
    throw new SigningKeyError(path, "not a PEM private key");
  }
  if (privateKey.asymmetricKeyType !== "ed25519") {
    throw new SigningKeyError(path, "not an Ed25519 private key");
  }
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, fingerprint: fingerprintOf(publicKey), source: path };
}

function describe(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? errorMessage(error);
}
