// Files the build gzip-compressed itself (pyodide.asm.wasm.gz), decompressed as they arrive. A
// plain static host sends such a file as it is; one configured for precompressed files sends it
// with `Content-Encoding: gzip`, and the browser has already decoded it. What arrived decides:
// gzip's two magic bytes are decompressed (DecompressionStream, native code), anything else is
// passed through. Works in a worker and in Node.

const GZIP_MAGIC = [0x1f, 0x8b];

/** The first `n` bytes of a stream, and a stream of all of it (those bytes included). */
export async function peek(stream, n) {
  const reader = stream.getReader();
  const held = [];
  let length = 0;
  let done = false;
  while (length < n && !done) {
    const next = await reader.read();
    done = next.done;
    if (!done && next.value.byteLength) {
      held.push(next.value);
      length += next.value.byteLength;
    }
  }
  const head = new Uint8Array(Math.min(n, length));
  let at = 0;
  for (const chunk of held) {
    if (at >= head.length) break;
    const part = chunk.subarray(0, head.length - at);
    head.set(part, at);
    at += part.length;
  }
  const whole = new ReadableStream({
    start(controller) {
      for (const chunk of held) controller.enqueue(chunk);
      if (done) controller.close();
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { head, whole };
}

/** Whether `stream` holds gzip (its first bytes are gzip's magic) and a stream of all its bytes. */
export async function sniffGzip(stream) {
  const { head, whole } = await peek(stream, GZIP_MAGIC.length);
  return { gzip: GZIP_MAGIC.every((byte, i) => head[i] === byte), body: whole };
}

/**
 * A Response with `response`'s body decompressed when it is gzip (see above), carrying `headers`
 * (e.g. the Content-Type `WebAssembly.instantiateStreaming` requires). The body streams: a
 * consumer such as the wasm compiler starts on the first decompressed bytes.
 */
export async function gunzipped(response, headers = {}) {
  const { gzip, body } = await sniffGzip(response.body);
  return new Response(gzip ? body.pipeThrough(new DecompressionStream("gzip")) : body, { status: 200, headers });
}
