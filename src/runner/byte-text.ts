// Byte strings: the pipeline's working form. Each char of a byte string is one byte of UTF-8
// (latin1 view), so lengths are byte counts and regexes over ASCII work unchanged, at memcpy
// cost to convert. Utf8Sanitizer turns a raw byte stream into valid UTF-8 byte strings.
import { isUtf8 } from "node:buffer";

/** A string whose chars are the bytes of UTF-8 text (latin1 view of a Buffer). */
export type ByteString = string;

export function toByteString(text: string): ByteString {
  return Buffer.from(text, "utf8").toString("latin1");
}

export function fromByteString(bytes: ByteString): string {
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** Length of the prefix of `data` that ends on a complete UTF-8 sequence (or an invalid byte). */
export function completeUtf8Length(data: Uint8Array): number {
  const length = data.length;
  for (let back = 0; back < 3 && back < length; back++) {
    const byte = data[length - 1 - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    if (byte < 0xc0) return length;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return need > back + 1 ? length - 1 - back : length;
  }
  return length;
}

/** Streams bytes into valid UTF-8 byte strings: invalid sequences become U+FFFD. */
export class Utf8Sanitizer {
  private carry: Buffer | null = null;

  push(chunk: Uint8Array): ByteString {
    const data = this.carry
      ? Buffer.concat([this.carry, chunk])
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const cut = completeUtf8Length(data);
    this.carry = cut < data.length ? Buffer.from(data.subarray(cut)) : null;
    return sanitize(data.subarray(0, cut));
  }

  end(): ByteString {
    const rest = this.carry;
    this.carry = null;
    return rest ? sanitize(rest) : "";
  }
}

function sanitize(part: Buffer): ByteString {
  if (isUtf8(part)) return part.toString("latin1");
  return Buffer.from(part.toString("utf8"), "utf8").toString("latin1");
}
