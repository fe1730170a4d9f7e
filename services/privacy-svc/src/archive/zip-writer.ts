import { pipeline } from "node:stream/promises";
import { crc32, createDeflateRaw } from "node:zlib";

/** One file of the archive: its name and its content, pulled chunk by chunk when its turn comes. */
export interface ZipEntry {
  name: string;
  content: () => AsyncIterable<Buffer | string>;
}

const LIMIT = 0xffffffff; // without ZIP64, sizes and offsets are 32-bit (an export is far below)
const FLAGS = 0x0808; // bit 3: sizes and CRC follow the data; bit 11: the name is UTF-8
const DEFLATE = 8;
const VERSION = 20; // 2.0: deflate
const MADE_BY = (3 << 8) | VERSION; // Unix, so the external attributes carry a file mode

/** MS-DOS date and time fields (UTC; two-second resolution), as ZIP headers store them. */
function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/**
 * The fields a local file header and its central directory record share, in the same order
 * (APPNOTE 4.3.7 and 4.3.12): version needed, flags, method, time, date, CRC-32, both sizes, name
 * length. `at` is where "version needed" stands: 4 in the local header, 6 in the central record.
 */
function writeEntryFields(
  b: Buffer,
  at: number,
  f: { time: number; date: number; crc: number; compressed: number; size: number; nameLength: number },
): void {
  b.writeUInt16LE(VERSION, at);
  b.writeUInt16LE(FLAGS, at + 2);
  b.writeUInt16LE(DEFLATE, at + 4);
  b.writeUInt16LE(f.time, at + 6);
  b.writeUInt16LE(f.date, at + 8);
  b.writeUInt32LE(f.crc, at + 10);
  b.writeUInt32LE(f.compressed, at + 14);
  b.writeUInt32LE(f.size, at + 18);
  b.writeUInt16LE(f.nameLength, at + 22);
}

interface Written {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/**
 * Writes a ZIP archive (APPNOTE 6.3.x, deflate, no ZIP64) as an async stream of chunks, pulling
 * each entry's content only when the previous entry is done. Nothing is held but zlib's window and
 * the chunk in flight, so memory does not grow with the archive; the consumer's pace is the
 * producer's (pull), and an error in any entry's content rejects the stream instead of ending it,
 * so a half-written archive can never look complete. Sizes and CRC go in a data descriptor after
 * each entry's data (bit 3), because they are known only once it is written; CRC-32 is Node's own
 * `zlib.crc32`. Why this instead of a package: docs/adr/0009-personal-data-export.md.
 *
 * @example
 * const upload = Readable.from(zipStream([{ name: "a.json", content: async function* () { yield "{}"; } }]));
 */
export async function* zipStream(entries: Iterable<ZipEntry>, mtime = new Date()): AsyncGenerator<Buffer> {
  const { time, date } = dosTime(mtime);
  const written: Written[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    // CRC and sizes stay zero: bit 3 puts them in the data descriptor.
    writeEntryFields(header, 4, { time, date, crc: 0, compressed: 0, size: 0, nameLength: name.length });
    const local = Buffer.concat([header, name]);
    yield local;
    const start = offset;
    offset += local.length;

    let crc = 0;
    let size = 0;
    let compressed = 0;
    const deflate = createDeflateRaw({ level: 6 });
    const feed = pipeline(async function* () {
      for await (const part of entry.content()) {
        const chunk = typeof part === "string" ? Buffer.from(part, "utf8") : part;
        crc = crc32(chunk, crc);
        size += chunk.length;
        yield chunk;
      }
    }, deflate);
    // If the reader below stops early, `feed` rejects too; it must not become an unhandled rejection.
    feed.catch(() => {});
    for await (const out of deflate as AsyncIterable<Buffer>) {
      compressed += out.length;
      yield out;
    }
    await feed; // an error in the content surfaces here
    if (size > LIMIT || compressed > LIMIT) throw new Error(`${entry.name} is too large for a ZIP without ZIP64`);
    offset += compressed;

    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    yield descriptor;
    offset += descriptor.length;
    written.push({ name, crc: crc >>> 0, compressed, size, offset: start });
  }

  const directoryStart = offset;
  for (const w of written) {
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(MADE_BY, 4);
    writeEntryFields(record, 6, {
      time,
      date,
      crc: w.crc,
      compressed: w.compressed,
      size: w.size,
      nameLength: w.name.length,
    });
    // extra length, comment length, disk number start, internal attributes: zero
    record.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
    record.writeUInt32LE(w.offset, 42);
    const entry = Buffer.concat([record, w.name]);
    yield entry;
    offset += entry.length;
  }
  if (offset > LIMIT || written.length > 0xffff) throw new Error("archive too large for a ZIP without ZIP64");

  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(written.length, 8);
  end.writeUInt16LE(written.length, 10);
  end.writeUInt32LE(offset - directoryStart, 12);
  end.writeUInt32LE(directoryStart, 16);
  yield end;
}
