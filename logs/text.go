package logs

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
)

// Safe makes text from a log safe for one line of a terminal: control
// characters (ESC, BEL, carriage returns, newlines, C1) and invalid UTF-8
// are shown as escapes (diag.EscapeLine, the rule every command shares).
func Safe(s string) string { return diag.EscapeLine(s) }

// WriteText prints the report for people.
func WriteText(w io.Writer, r *Report) error {
	tw := &textWriter{w: w}
	for _, m := range r.Warnings {
		tw.p("warning: %s\n", Safe(m))
	}
	tw.files(r)
	for i := range r.Engines {
		tw.engine(&r.Engines[i])
	}
	tw.failures(r)
	tw.comparison(r)
	for _, n := range r.Notes {
		tw.p("note: %s\n", Safe(n))
	}
	return tw.err
}

type textWriter struct {
	w   io.Writer
	err error
}

func (t *textWriter) p(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}

func (t *textWriter) files(r *Report) {
	for _, f := range r.Files {
		extra := ""
		if len(f.Formats) > 0 {
			extra = " (" + strings.Join(f.Formats, ", ") + ")"
		}
		if f.Gzip {
			extra += ", gzip"
		}
		if f.Restarts > 0 {
			extra += fmt.Sprintf(", %d restart(s)", f.Restarts)
		}
		if f.Truncated {
			extra += truncatedNote(f.Gzip)
		}
		t.p("%s: %d lines%s\n", Safe(f.Name), f.Lines, extra)
	}
}

func (t *textWriter) engine(e *Engine) {
	state := "not ready (" + orDefault(e.Phase, "no start-up lines") + ")"
	if e.Ready {
		state = "ready"
	}
	t.p("\nengine %s: vLLM %s%s, %s, %s — %s\n", e.ID, versionStr(e), gen(e.EngineGeneration),
		orDefault(Safe(e.Model), "model ?"), layout(e), state)
	t.p("  max_model_len %s · attention %s · all-to-all %s%s\n", intStr(e.MaxModelLen),
		orDefault(Safe(e.AttentionBackend), "-"), orDefault(Safe(e.All2AllBackend), "-"), modelExtras(e))
	t.p("  per GPU (GiB): %s\n", memoryLine(e))
	t.p("  KV cache: %s%s%s, max concurrency %s at %s tokens\n", kvAmount(e), derivedMark(e, "kv_cache_tokens"),
		dcpMark(e), floatStr(e.MaxConcurrency, "x"), intStr(e.ConcurrencyTokens))
	if pl := profileLine(e); pl != "" {
		t.p("  profile: %s\n", pl)
	}
	if len(e.Addresses) > 0 {
		t.p("  addresses: %s\n", mapLine(e.Addresses))
	}
	if kv := e.KVTransfer; kv != nil {
		t.p("  KV connector: %s\n", kvLine(kv))
	}
	switch {
	case e.Pool != "":
		t.p("  pool: %s (%s)\n", Safe(e.Pool), Safe(e.PoolBy))
	case e.PoolBy != "":
		t.p("  pool: cannot tell (%s)\n", Safe(e.PoolBy))
	}
	if len(e.Args) > 0 {
		t.p("  args: %s\n", mapLine(e.Args))
	}
	if e.FrontEndOnly {
		t.p("  %s\n", frontEndOnlyNote)
	}
	for _, rk := range e.Ranks {
		t.p("  rank %s [%s]: %s, last line %s:%d\n", Safe(rk.Label), rk.Role, orDefault(rk.Phase, "-"), Safe(rk.Last.File), rk.Last.Line)
	}
}

// frontEndOnlyNote says what a FrontEndOnly engine's report cannot hold.
const frontEndOnlyNote = "not in the log: the engine core's and workers' lines (no \"Initializing a V1 LLM engine\" " +
	"header, no worker): only the API server's lines were read, so the engine's config line, memory profile and KV cache " +
	"figures are unknown (\"?\"): this log does not hold them"

// versionStr is the release as logged, or the bound a line's wording
// gives ("? (newer than 0.19.0 by its wording, file:2)"), or "?".
func versionStr(e *Engine) string {
	if untaggedBuild(e.Version) {
		return Safe(e.Version) + " (a source build with no release tag: release unknown)"
	}
	if e.Version != "" || e.VersionAfter == "" {
		return orDefault(Safe(e.Version), "?")
	}
	return "? (newer than " + Safe(e.VersionAfter) + " by the wording of " + Safe(e.Evidence["version_after"]) + ")"
}

// FlashInferSorts is what the report says of an engine whose workers
// logged that FlashInfer is not installed.
const FlashInferSorts = "FlashInfer not installed (logged): the profile's sampler sorts"

// profileLine is what the log says changes vLLM's memory profile: no
// FlashInfer (the sampler sorts) and the multimodal encoder's profile;
// "" when it says neither.
func profileLine(e *Engine) string {
	var parts []string
	if e.FlashInfer == FlashInferNotInstalled {
		parts = append(parts, FlashInferSorts)
	}
	if e.EncoderCacheBudget != nil {
		s := "encoder cache budget " + int64Str(e.EncoderCacheBudget) + " tokens"
		if e.EncoderProfileItems != nil {
			s += fmt.Sprintf(", profiled with %d %s item(s) of the maximum feature size", *e.EncoderProfileItems, orDefault(Safe(e.EncoderProfileModality), "?"))
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " · ")
}

func gen(g string) string {
	if g == "" {
		return ""
	}
	return " (" + g + ")"
}

func layout(e *Engine) string {
	s := fmt.Sprintf("TP%s PP%s DP%s", sizeStr(e.TP, e.TPAtLeast), sizeStr(e.PP, e.PPAtLeast), sizeStr(e.DP, e.DPAtLeast))
	if e.DCP != nil && *e.DCP > 1 {
		s += fmt.Sprintf(" DCP%d", *e.DCP)
	}
	if e.ExpertParallel != nil && *e.ExpertParallel {
		s += " EP"
	}
	return s
}

// sizeStr is a parallel size as logged, or the lower bound its ranks
// show ("TP at least 8"), or "?".
func sizeStr(n, atLeast *int) string {
	if n == nil && atLeast != nil && *atLeast > 1 {
		return " at least " + strconv.Itoa(*atLeast)
	}
	return intStr(n)
}

// graphStr is the CUDA graphs' figure, or why there is none.
func graphStr(e *Engine) string {
	if e.CUDAGraphGiB == nil && e.CUDAGraphsOff != "" {
		return "none (" + Safe(e.CUDAGraphsOff) + ")"
	}
	return floatStr(e.CUDAGraphGiB, "")
}

func memoryLine(e *Engine) string {
	parts := []string{
		"total " + floatStr(e.GPUTotalGiB, "") + " × " + floatStr(e.GPUMemoryUtilization, "") + profiledUtil(e),
		"weights " + floatStr(e.WeightsGiB, "") + secs(e.WeightsSeconds) + weightsMark(e),
		"activation " + floatStr(e.ActivationPeakGiB, "") + derivedMark(e, "activation_peak_gib"),
		"non-torch " + floatStr(e.NonTorchGiB, "") + derivedMark(e, "non_torch_gib") + consumedMark(e),
		"KV " + floatStr(e.AvailableKVGiB, "") + kvMinMark(e),
		"CUDA graphs " + graphStr(e) + notMemoryMark(e, "cuda_graph_gib"),
	}
	return strings.Join(parts, " | ")
}

// notMemoryMark flags a figure kept as read that is not a memory fact.
func notMemoryMark(e *Engine, key string) string {
	if _, ok := e.NotMemory[key]; ok {
		return " (noise, not memory: see notes)"
	}
	return ""
}

// profiledUtil is the utilization vLLM 0.21+ says the requested one is
// equivalent to without CUDA graph memory profiling, when logged.
func profiledUtil(e *Engine) string {
	if e.UtilizationWithoutGraphProfiling == nil {
		return ""
	}
	return " (≙ " + floatStr(e.UtilizationWithoutGraphProfiling, "") + " without CUDA graph profiling)"
}

// modelExtras are the second line's optional figures: the block size, a
// hybrid model's mamba page padding, the resolved architecture and the
// model runner, each only when logged (older releases log none of them).
func modelExtras(e *Engine) string {
	var b strings.Builder
	if e.BlockSize != nil {
		b.WriteString(" · block " + intStr(e.BlockSize))
		if e.MambaPagePaddingPct != nil {
			b.WriteString(" (mamba page padded " + floatStr(e.MambaPagePaddingPct, "%") + ")")
		}
	}
	if e.Architecture != "" {
		b.WriteString(" · " + Safe(e.Architecture))
	}
	if e.ModelRunner != "" {
		b.WriteString(" · model runner " + Safe(e.ModelRunner))
	}
	return b.String()
}

func derivedMark(e *Engine, name string) string {
	for _, d := range e.Derived {
		if d == name {
			return " (derived)"
		}
	}
	return ""
}

func secs(f *float64) string {
	if f == nil {
		return ""
	}
	return fmt.Sprintf(" (%.1f s)", *f)
}

func mapLine(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, Safe(k)+"="+Safe(m[k]))
	}
	return strings.Join(parts, " ")
}

func intStr(n *int) string {
	if n == nil {
		return "?"
	}
	return strconv.Itoa(*n)
}

func int64Str(n *int64) string {
	if n == nil {
		return "?"
	}
	return strconv.FormatInt(*n, 10)
}

func floatStr(f *float64, unit string) string {
	if f == nil {
		return "?"
	}
	return strconv.FormatFloat(*f, 'f', -1, 64) + unit
}

func (t *textWriter) failures(r *Report) {
	if len(r.Failures) == 0 {
		if r.Serving {
			t.p("\nno failures: the server started\n")
		} else {
			t.p("\nno failures recognised\n")
		}
		return
	}
	t.p("\n")
	for _, f := range r.Failures {
		count := ""
		if f.Count > 1 {
			count = fmt.Sprintf(" (%d lines)", f.Count)
		}
		t.p("%s %s [%s] %s, %s, %s:%d%s\n", f.Code, f.Kind, f.Severity, Safe(f.Engine), Safe(f.Rank), Safe(f.File), f.Line, count)
		t.p("  %s\n", Safe(f.Message))
		if f.Text != "" && f.Text != f.Message {
			t.p("  log: %s\n", Safe(f.Text))
		}
		for _, r := range f.Relayed {
			count := ""
			if r.Count > 1 {
				count = fmt.Sprintf(" (%d lines)", r.Count)
			}
			t.p("  also: %s, %s:%d%s: %s\n", Safe(r.Rank), Safe(r.File), r.Line, count, Safe(r.Text))
		}
		t.p("  fix: %s\n", Safe(f.Fix))
	}
}

func (t *textWriter) comparison(r *Report) {
	if len(r.Comparison) == 0 {
		return
	}
	t.p("\nlogged vs predicted (per GPU of rank 0; targets: docs/calibration-memory.md):\n")
	// The engine column is as wide as its widest label (an engine id with
	// its pool: "B/node0.log/dp0 [decode]"), at least "engine".
	w := len("engine")
	for _, c := range r.Comparison {
		w = max(w, len(Safe(compLabel(c))))
	}
	t.p("  %-*s %-36s %14s %14s %9s  %s\n", w, "engine", "term", "logged", "predicted", "error", "")
	for _, c := range r.Comparison {
		label := compLabel(c)
		mark := ""
		if c.Within != nil && c.Target != nil {
			mark = "within target"
			if !*c.Within {
				mark = fmt.Sprintf("above the %.0f%% target", *c.Target*100)
			}
		}
		if c.Logged == nil && c.Predicted == nil {
			// A note on how the engine's figures were predicted.
			t.p("  %-*s %-36s %s\n", w, Safe(label), c.Term, Safe(c.Explanation))
			continue
		}
		t.p("  %-*s %-36s %14s %14s %9s  %s\n", w, Safe(label), c.Term, figure(c.Logged, c.Unit), figure(c.Predicted, c.Unit), pct(c.Error), mark)
		if c.Explanation != "" {
			t.p("  %-*s   %s\n", w, "", Safe(c.Explanation))
		}
	}
}

// compLabel is a comparison row's engine as the table shows it.
func compLabel(c Comparison) string {
	if c.Pool != "" {
		return c.Engine + " [" + c.Pool + "]"
	}
	return c.Engine
}

// figure prints a compared value in its unit's precision.
func figure(f *float64, unit string) string {
	switch {
	case f == nil:
		return "?"
	case unit == "tokens" || unit == "bytes":
		return strconv.FormatFloat(*f, 'f', 0, 64)
	case unit == "bool":
		if *f != 0 {
			return "yes"
		}
		return "no"
	case unit == "x":
		return strconv.FormatFloat(*f, 'f', 2, 64) + "x"
	}
	return strconv.FormatFloat(*f, 'f', 2, 64)
}

func pct(e *float64) string {
	if e == nil {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", *e*100)
}

// kvLine is an engine's KV connector in one line: "NixlConnector, role
// kv_producer, engine p-1 · NIXL UCX, layout HND, side channel h:5600".
func kvLine(kv *KVTransfer) string {
	parts := []string{orDefault(Safe(kv.Connector), "?")}
	if kv.Role != "" {
		parts = append(parts, "role "+Safe(kv.Role))
	}
	if kv.EngineID != "" {
		parts = append(parts, "engine "+Safe(kv.EngineID))
	}
	s := strings.Join(parts, ", ")
	var nixl []string
	if len(kv.Backends) > 0 {
		nixl = append(nixl, "NIXL "+Safe(strings.Join(kv.Backends, "+")))
	}
	if kv.KVCacheLayout != "" {
		nixl = append(nixl, "layout "+Safe(kv.KVCacheLayout))
	}
	if kv.SideChannel != "" {
		nixl = append(nixl, "side channel "+Safe(kv.SideChannel))
	}
	if kv.UseMLA != nil && *kv.UseMLA {
		nixl = append(nixl, "MLA")
	}
	if kv.RegisteredBlocks != nil {
		nixl = append(nixl, fmt.Sprintf("%d blocks registered", *kv.RegisteredBlocks))
	}
	if len(nixl) > 0 {
		s += " · " + strings.Join(nixl, ", ")
	}
	if m := kv.Metrics; m != nil {
		s += fmt.Sprintf(" · %d transfers, avg %.3g ms (p90 up to %.3g), %.3g MB each, %.4g MB/s", m.Transfers, m.AvgXferMs, m.MaxP90XferMs, m.AvgMBPerXfer, m.ThroughputMBps)
	}
	return s
}

// dcpMark says that the logged KV tokens are a rank's times the decode
// context parallel size (vLLM multiplies them, vllm.DCPLogSource).
func dcpMark(e *Engine) string {
	if e.DCP == nil || *e.DCP <= 1 || e.KVCacheTokens == nil {
		return ""
	}
	return fmt.Sprintf(" (a rank's tokens × DCP %d, as vLLM logs them)", *e.DCP)
}

// kvAmount is the KV cache's size in tokens; with only the number of GPU
// blocks logged (V0's "# GPU blocks: 507, # CPU blocks: 1024") and no block
// size to multiply it by, the blocks.
func kvAmount(e *Engine) string {
	if e.KVCacheTokens == nil && e.NumGPUBlocks != nil {
		return fmt.Sprintf("%d GPU blocks (block size not logged: tokens = blocks × block size)", *e.NumGPUBlocks)
	}
	return int64Str(e.KVCacheTokens) + " tokens"
}

// weightsMark says the weights are the largest rank's when the ranks
// differ, and where the load time comes from when that rank logged none.
func weightsMark(e *Engine) string {
	var parts []string
	if len(e.WeightsByRank) > 0 {
		var rs []string
		for _, r := range e.WeightsByRank {
			rs = append(rs, Safe(r.Rank)+" "+strconv.FormatFloat(r.GiB, 'f', -1, 64))
		}
		parts = append(parts, "the largest rank's: "+strings.Join(rs, ", "))
	}
	if e.SlowestWeightsSeconds != nil {
		parts = append(parts, fmt.Sprintf("that rank logged no load time; the slowest rank's: %.1f s", *e.SlowestWeightsSeconds))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// kvMinMark says the KV figure is the smallest of the ranks' and lists them.
func kvMinMark(e *Engine) string {
	if len(e.AvailableKVByRank) == 0 {
		return ""
	}
	var rs []string
	for _, r := range e.AvailableKVByRank {
		rs = append(rs, Safe(r.Rank)+" "+strconv.FormatFloat(r.GiB, 'f', -1, 64))
	}
	if e.AvailableKVPerRankOnly {
		return " (the first rank's; per rank, pipeline stages whose blocks differ in size: " + strings.Join(rs, ", ") + ")"
	}
	return " (minimum of the ranks, the engine's binding one: " + strings.Join(rs, ", ") + ")"
}

// consumedMark shows vLLM's one figure for weights and non-torch memory
// when non-torch could not be derived from it (no weights logged).
func consumedMark(e *Engine) string {
	if e.ConsumedGiB == nil || e.NonTorchGiB != nil {
		return ""
	}
	return " (weights + non-torch " + floatStr(e.ConsumedGiB, "") + ")"
}

// truncatedNote says how much of a cut file was read, and for gzip how to
// read the rest.
func truncatedNote(gz bool) string {
	if gz {
		return fmt.Sprintf(", read only the first %d MiB decompressed (the cap on gzip input, against "+
			"decompression bombs; a start-up log is far smaller: decompress the file to read all of it)", maxGzipBytes>>20)
	}
	return fmt.Sprintf(", read only the first %d GiB", MaxFileBytes>>30)
}
