"""Pure renderers: rules data in, Markdown (with a little HTML) out. No I/O, no MkDocs."""
