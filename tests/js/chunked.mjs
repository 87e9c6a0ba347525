// A test helper (not a test file): a stream of bytes cut into chunks, as a network delivers them.

/** A stream of `bytes` cut into `size`-byte chunks (1: a file's magic bytes arrive apart). */
export function chunked(bytes, size) {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}
