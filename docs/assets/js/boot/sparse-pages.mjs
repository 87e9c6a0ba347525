// A memory image without its zero pages. Half of the memory snapshot's 31 MB are 64 KiB pages
// of zeros; gunzipping them still costs time (measured in Chromium here: 125–205 ms for the whole
// image, 73–85 ms without those pages), on every start that restores it. So the build packs the
// image (tools/make_snapshot.mjs) and the loader unpacks it into a zeroed buffer
// (snapshot-loader.mjs).
//
// Format (little-endian): "CCS1" magic, page size, image length, page count (four u32), then one
// byte per page (1: stored, 0: all zeros), then the stored pages in order (the last one may be
// short).

const MAGIC = 0x31534343; // "CCS1"
const HEADER = 16;

/** True when `bytes` (a Uint8Array) starts like a packed image. */
export function isPacked(bytes) {
  return bytes.byteLength >= HEADER && new DataView(bytes.buffer, bytes.byteOffset, HEADER).getUint32(0, true) === MAGIC;
}

/** `image` (a Uint8Array) packed without its zero pages. */
export function packPages(image, pageSize = 65536) {
  const count = Math.ceil(image.length / pageSize);
  const stored = [];
  const flags = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const page = image.subarray(i * pageSize, Math.min(image.length, (i + 1) * pageSize));
    if (page.some((b) => b !== 0)) {
      flags[i] = 1;
      stored.push(page);
    }
  }
  const out = new Uint8Array(HEADER + count + stored.reduce((n, p) => n + p.length, 0));
  const header = new DataView(out.buffer, 0, HEADER);
  [MAGIC, pageSize, image.length, count].forEach((value, i) => header.setUint32(4 * i, value, true));
  out.set(flags, HEADER);
  let at = HEADER + count;
  for (const page of stored) {
    out.set(page, at);
    at += page.length;
  }
  return out;
}

/** The image `packPages` packed into `bytes`; throws on anything malformed. */
export function unpackPages(bytes) {
  if (!isPacked(bytes)) throw new Error("not a packed memory image");
  const header = new DataView(bytes.buffer, bytes.byteOffset, HEADER);
  const [pageSize, length, count] = [4, 8, 12].map((offset) => header.getUint32(offset, true));
  if (!pageSize || count !== Math.ceil(length / pageSize) || bytes.length < HEADER + count) {
    throw new Error("packed memory image: inconsistent header");
  }
  const image = new Uint8Array(length);
  let at = HEADER + count;
  for (let i = 0; i < count; i++) {
    if (!bytes[HEADER + i]) continue;
    const size = Math.min(pageSize, length - i * pageSize);
    if (at + size > bytes.length) throw new Error("packed memory image: truncated");
    image.set(bytes.subarray(at, at + size), i * pageSize);
    at += size;
  }
  if (at !== bytes.length) throw new Error("packed memory image: trailing bytes");
  return image;
}
