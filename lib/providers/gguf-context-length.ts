import { closeSync, fstatSync, openSync, readSync } from "node:fs";

// GGUF (llama.cpp's model format, docs/gguf.md of ggml): "GGUF", a uint32 version, the tensor
// count and the metadata count (uint64 since version 2), then the metadata as key-value pairs,
// little-endian. Reading them is the first kilobytes of the file (11 KB of stories260K's 1.2 MB,
// its vocabulary included); loading the model to ask node-llama-cpp for its train context took
// the native runtime (0.8 s to import) and the whole file in memory.

const valueSizes: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const stringType = 8;
const arrayType = 9;
const integerTypes = new Set([0, 1, 2, 3, 4, 5, 10, 11]);
// Far above any real file's (a few dozen keys); a corrupt count must not make us loop for ever.
const maxMetadataCount = 1_000_000;
const chunkBytes = 64 * 1024;

/**
 * The context length a GGUF model file declares (`<general.architecture>.context_length`), read
 * from its metadata without loading the model; null when the file declares none. Throws an Error
 * saying what is wrong when the file is no readable GGUF file.
 */
export function readGgufContextLength(file: string): number | null {
  const handle = openSync(file, "r");
  try {
    const reader = new HeaderReader(handle, fstatSync(handle).size);
    if (reader.bytes(4).toString("latin1") !== "GGUF") throw new Error("it does not start with the GGUF signature");
    const version = reader.uint32();
    if (version < 2 || version > 3) throw new Error(`GGUF version ${version} is not supported (2 and 3 are)`);
    reader.uint64(); // tensors
    const count = reader.uint64();
    if (count > maxMetadataCount) throw new Error(`it claims ${count} metadata entries`);

    let architecture: string | null = null;
    const lengths = new Map<string, number>();
    for (let index = 0; index < count; index++) {
      const key = reader.string();
      const type = reader.uint32();
      if (key === "general.architecture" && type === stringType) {
        architecture = reader.string();
      } else if (key.endsWith(".context_length") && integerTypes.has(type)) {
        lengths.set(key, reader.integer(type));
      } else {
        reader.skipValue(type);
      }
      // Stops at the key: the rest of the metadata, the tensor infos and the weights are never read.
      const length = architecture === null ? undefined : lengths.get(`${architecture}.context_length`);
      if (length !== undefined) return length > 0 ? length : null;
    }
    return null;
  } finally {
    closeSync(handle);
  }
}

/** Reads the header forwards in chunks, never past the end of the file. */
class HeaderReader {
  private buffer = Buffer.alloc(0);
  private bufferStart = 0;
  private position = 0;

  constructor(
    private readonly handle: number,
    private readonly size: number,
  ) {}

  bytes(length: number): Buffer {
    this.ensure(length);
    const offset = this.position - this.bufferStart;
    this.position += length;
    return this.buffer.subarray(offset, offset + length);
  }

  uint32(): number {
    return this.bytes(4).readUInt32LE(0);
  }

  uint64(): number {
    const value = this.bytes(8).readBigUInt64LE(0);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error("a count in its header is out of range");
    return Number(value);
  }

  string(): string {
    return this.bytes(this.uint64()).toString("utf8");
  }

  integer(type: number): number {
    const bytes = this.bytes(valueSizes[type]);
    switch (type) {
      case 0:
        return bytes.readUInt8(0);
      case 1:
        return bytes.readInt8(0);
      case 2:
        return bytes.readUInt16LE(0);
      case 3:
        return bytes.readInt16LE(0);
      case 4:
        return bytes.readUInt32LE(0);
      case 5:
        return bytes.readInt32LE(0);
      case 10:
        return Number(bytes.readBigUInt64LE(0));
      default:
        return Number(bytes.readBigInt64LE(0));
    }
  }

  skipValue(type: number): void {
    if (type === stringType) return this.skip(this.uint64());
    if (type === arrayType) {
      const elementType = this.uint32();
      const count = this.uint64();
      const size = valueSizes[elementType];
      if (size !== undefined) return this.skip(count * size);
      for (let index = 0; index < count; index++) this.skipValue(elementType);
      return;
    }
    const size = valueSizes[type];
    if (size === undefined) throw new Error(`its metadata has a value of unknown type ${type}`);
    this.skip(size);
  }

  private skip(length: number): void {
    this.check(length);
    this.position += length;
  }

  private check(length: number): void {
    if (this.position + length > this.size) throw new Error("its metadata runs past the end of the file");
  }

  private ensure(length: number): void {
    this.check(length);
    if (this.position >= this.bufferStart && this.position + length <= this.bufferStart + this.buffer.length) return;
    this.buffer = Buffer.alloc(Math.min(Math.max(length, chunkBytes), this.size - this.position));
    this.bufferStart = this.position;
    for (let filled = 0; filled < this.buffer.length;) {
      const read = readSync(this.handle, this.buffer, filled, this.buffer.length - filled, this.position + filled);
      if (read === 0) throw new Error("the file ended while its metadata was read");
      filled += read;
    }
  }
}
