// Package logs reads vLLM start-up logs and explains them.
//
// It accepts the logs of every vLLM release from 0.5 to the newest (the V0
// and V1 engines) as users capture them: printed to a terminal, from
// `docker logs`, `kubectl logs` (with --timestamps or --prefix) or
// journald, with or without ANSI colours, with the process prefixes vLLM and
// Ray add — "(EngineCore_DP3 pid=…)", "(VllmWorker rank=1 pid=…)",
// "(RayWorkerWrapper pid=…, ip=…)" — one file per node or every node
// interleaved in one file, plain or gzip-compressed — and as they are
// pasted through Markdown and HTML pages: quoted ("> ", ">> "), in code
// fences or <details> blocks, with Markdown escapes ("\[gpu\_worker.py"),
// HTML entities ("&gt;", "&#39;") or hard-wrapped at the page's width,
// decoded only once the paste shows the form (paste.go).
//
// From the lines it extracts, per engine (DP rank) and per worker rank, the
// release, the model, the effective engine arguments, the memory figures of
// vLLM's start-up budget (weights, activation peak, non-torch memory, CUDA
// graphs, available KV memory, KV tokens, maximum concurrency), the attention
// and all-to-all backends and the DP/EP ranks and addresses. It recognises
// the failures people post in vLLM's issue tracker, each with a stable code,
// a kind and what to do, and a start-up that stops without an error (a hang:
// the last rank waits for another one): which rank got least far and where
// it stopped. For prefill/decode disaggregation it reads each engine's KV
// connector (name, kv_role, engine ID, NIXL backends, KV layout, side
// channel, NIXL's transfer metrics) and recognises the failures of the
// NIXL handshake, side channel, UCX transport and KV hand-off (LOG2xx).
// A log that merely ends, with no error and no wait, is what an
// excerpt looks like: it is reported as the phase it ends in (info).
// Input files that come from different servers — a P/D deployment's
// prefill and decode servers, told apart by a DP rank both claim or by
// what each file says of its server (DP naming, kv_role, parallel sizes,
// port) — are reported as separate servers, each with its own engines
// and its own end.
//
// Reading is streaming and bounded: a line is at most MaxLineBytes, a file
// at most MaxFileBytes after decompression, and the state kept per process,
// engine and failure is capped, so memory does not grow with the log.
// Inputs must be regular files (or gzip of one): a FIFO or a device is
// refused instead of blocking.
//
// The package returns values; the caller prints them (WriteText, JSON).
package logs
