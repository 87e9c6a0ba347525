// Files the build xz-compressed itself (the standard library's and the wheels' stored zips,
// tools/build_site.py write_stored_xz), decompressed as they arrive by xz-decompress (xz-embedded
// in WebAssembly: browsers' DecompressionStream has gzip only, and gzip over these files saves a
// third less). Like gunzip.mjs, what arrived decides: xz's magic bytes are decoded, anything else
// (a host that already decoded it) is passed through. Works in a worker and in Node.
import { peek } from "./gunzip.mjs";

const XZ_MAGIC = [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00];

/**
 * A Response with `response`'s body xz-decoded when it is xz, carrying `headers`; the body
 * streams. `XzReadableStream` is the decoder's class (its module is imported by the caller, once,
 * while the first download is on its way).
 */
export async function unxzed(response, XzReadableStream, headers = {}) {
  const { head, whole } = await peek(response.body, XZ_MAGIC.length);
  const xz = XZ_MAGIC.every((byte, i) => head[i] === byte);
  return new Response(xz ? onFirstRead(() => new XzReadableStream(whole), whole) : whole, { status: 200, headers });
}

/** The stream `make()` returns, made when it is first read. xz-decompress decodes one stream at a
 * time (a lock taken when a stream is made, released at its end): a response nobody reads (the
 * standard library fetched early for a start that restored the memory snapshot instead) must not
 * hold it, or the next file would never decode. `source` is cancelled if it never was made. */
function onFirstRead(make, source) {
  let reader = null;
  return new ReadableStream({
    async pull(controller) {
      reader ??= make().getReader();
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => (reader ? reader.cancel(reason) : source.cancel(reason)),
  }, { highWaterMark: 0 }); // no read ahead: the first pull is the consumer's first read
}
