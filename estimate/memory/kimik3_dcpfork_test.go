package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// Kimi-K3 (the original moonshotai/Kimi-K3 MXFP4 checkpoint) on 16 RTX PRO
// 6000 Blackwell GPUs, TP 16 + DCP 8, FP8 KV, max_model_len 1,048,576,
// max_num_seqs 1: two start-ups of a fork of vLLM, each with the KV pool
// given by kv_cache_memory_bytes, published by infernix/rtx6kpro
// (logs/testdata/real/fork-rtx6kpro-kimi-k3-hh-tp16-dcp8-kv.txtar and fork-rtx6kpro-kimi-k3-tp16-dcp8-kv.txtar):
//
//   - models/kimi-k3/hh-dense-mla-full-mxfp4-dcp8-2026-08-03.md (commit
//     8b3d22cd; local-inference-lab/vllm 6f1bcaa05, the "HH" branch):
//     "KV cache allocation: 1,860,000,000 bytes/rank", "page size: 768",
//     "GPU KV cache size: 1,054,602 tokens", "Maximum concurrency for
//     1,048,576 tokens per request: 1.01x";
//   - models/kimi-k3/full-mxfp4-tp16-dcp8-2026-08-02.md (commit e5ab9bc2;
//     local-inference-lab/vllm 0f3eb381a): kv_cache_memory_bytes=1879048192,
//     "GPU KV cache size: 1,059,851 tokens", the same 1.01x.
//
// Neither is a vLLM release: the fork shards the replicated projections
// ("90.93 GiB/rank", not stock vLLM's weights) and replicates the KDA
// state over the DCP ranks (its commit 852812c20), and the available
// memory is given, not profiled, so only the KV arithmetic is tested: the
// issue's "KV tokens and maximum concurrency within 10%" from the given
// pool. vLLM 0.20.0-0.24.0 would stop this start-up right after printing
// the same lines (vllm/v1/core/kv_cache_utils.py
// resolve_kv_cache_block_sizes: hybrid KV cache groups with DCP > 1 raise
// "... do not support context parallelism", read at the tags).
const (
	kimiK3ForkHHPoolBytes  = 1_860_000_000
	kimiK3ForkHHTokens     = 1_054_602
	kimiK3ForkPoolBytes    = 1_879_048_192
	kimiK3ForkTokens       = 1_059_851
	kimiK3ForkMaxModelLen  = 1_048_576
	kimiK3ForkLoggedConc   = 1.01
	kimiK3ForkBlockPages   = 24 * 442_368 // one page of each of the 24 layers a group holds
	kimiK3ForkMLABlocks    = 171          // ceil(ceil(1,048,576 / 8) / 768)
	kimiK3ForkStateGroups  = 3            // ceil(69 KDA layers / 24)
	kimiK3ForkPaddingSlots = 3            // 3 × 24 − 69
)

// kimiK3ForkInput is the published config.json at TP 16 with DCP 8 and the
// logged settings (FP8 KV, 1 sequence, 256 batched tokens, utilization
// 0.985). The release is 0.24.0's rules (the fork's base is not pinned to
// a release).
func kimiK3ForkInput(t *testing.T, extra ...string) *input.Input {
	t.Helper()
	m := hfFixture(t, "kimi-k3.verbatim.json")
	g, err := catalog.LookupGPU("rtx-pro-6000")
	if err != nil {
		t.Fatal(err)
	}
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.24.0", Layout: input.Layout{TP: 16, PP: 1, DP: 1, Nodes: 2, GPUsPerNode: 8}}
	util, batched, seqs := 0.985, 256, 1
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "fp8", Util: &util,
		MaxModelLen: kimiK3ForkMaxModelLen, MaxNumBatchedTokens: &batched, MaxNumSeqs: &seqs, ExtraArgs: extra}); ds.HasErrors() {
		t.Fatal(ds)
	}
	in.DCP = 8
	return in
}

// TestKimiK3DCPForkLogKVFromGivenMemory derives the fork's KV lines by hand
// and holds vlaunch's layout to them. At TP 16 a KDA layer's state is conv
// 3 × 3 × 96 × 128 / 16 = 6,912 BF16 values (13,824 B) + recurrent 6 × 128
// × 128 float32 (393,216 B) = 407,040 B; the NoPE MLA layers keep 576 FP8
// bytes per token, so vLLM raises the block to 64 × ceil(407,040 / (64 ×
// 576)) = 768 tokens (the fork's "page size: 768"), a page of 442,368 B;
// 24 MLA and 69 KDA layers make groups of 24: one attention group and 3
// state groups (3 padding slots), a block of 24 pages = 10,616,832 B. A
// 1,048,576-token request keeps 131,072 tokens on each DCP rank, 171 pages
// of 768, and one state page in each state group: 174 blocks. 1.86e9 B make
// 175 blocks: 175 / 174 × 1,048,576 = 1,054,602 tokens and 1.01x — the HH
// log exactly. The 08-02 build's 1,879,048,192 B make 176 blocks, 1,060,628
// tokens (+0.07% against its 1,059,851, whose ratio 1,059,851 / 1,048,576 is
// 94 / 93: another layout in that build, not read). vlaunch's release rule
// keeps two state pages (mamba_cache_mode "align", StatePages): 177 blocks a
// request, 1,036,727 tokens and 0.99x (−1.7%, −2%); with one page, as these
// logs imply, exact. Before DCP was applied to a hybrid's attention pages,
// a request took 1,366 + 6 blocks: 133,749 tokens (−87%).
func TestKimiK3DCPForkLogKVFromGivenMemory(t *testing.T) {
	in := kimiK3ForkInput(t)
	kv := KVBytes(in, Stage{First: 0, End: in.Model.NumLayers})
	p := kv.pack()
	groups, stateGroups := 0, 0
	for _, k := range p.kinds {
		groups += k.groups
		if k.state {
			stateGroups += k.groups
		}
	}
	if kv.HybridBlock != 768 || p.groupSize != 24 || groups != 1+kimiK3ForkStateGroups || stateGroups != kimiK3ForkStateGroups ||
		p.paddingLayers() != kimiK3ForkPaddingSlots || p.page*int64(p.unitLayers) != kimiK3ForkBlockPages || kv.DCP != 8 {
		t.Fatalf("layout: block %d, groups of %d, %d groups (%d state), %d padding, block %d B, DCP %d; want 768, 24, 4 (3), 3, %d, 8",
			kv.HybridBlock, p.groupSize, groups, stateGroups, p.paddingLayers(), p.page*int64(p.unitLayers), kv.DCP, kimiK3ForkBlockPages)
	}
	if kv.StatePages != 2 {
		t.Fatalf("state pages %d: the release rule (align) is 2; this test's figures assume it", kv.StatePages)
	}
	cases := []struct {
		name       string
		pool       float64
		statePages int
		logged     int64
		want       int64
		tol        float64
	}{
		{"HH, one state page", kimiK3ForkHHPoolBytes, 1, kimiK3ForkHHTokens, kimiK3ForkHHTokens, 0},
		{"HH, the release's two", kimiK3ForkHHPoolBytes, 2, kimiK3ForkHHTokens, 1_036_727, 0.02},
		{"08-02, one state page", kimiK3ForkPoolBytes, 1, kimiK3ForkTokens, 1_060_628, 0.001},
		{"08-02, the release's two", kimiK3ForkPoolBytes, 2, kimiK3ForkTokens, 1_042_651, 0.02},
	}
	for _, c := range cases {
		l := kv
		l.StatePages = c.statePages
		perRequest := int64(kimiK3ForkMLABlocks + kimiK3ForkStateGroups*c.statePages)
		if got := l.SequenceBytes(kimiK3ForkMaxModelLen, in.BlockSize); got != perRequest*kimiK3ForkBlockPages {
			t.Errorf("%s: a 1,048,576-token request %d B, want %d blocks of %d B", c.name, got, perRequest, kimiK3ForkBlockPages)
		}
		blocks := int64(c.pool / kimiK3ForkBlockPages)
		hand := int64(float64(blocks) / float64(perRequest) * kimiK3ForkMaxModelLen)
		tok, ok := l.ReportedTokens(c.pool, kimiK3ForkMaxModelLen, true)
		if !ok || tok != c.want || hand != c.want {
			t.Errorf("%s: %d tokens (by hand %d from %d blocks / %d), want %d", c.name, tok, hand, blocks, perRequest, c.want)
		}
		if off := float64(tok)/float64(c.logged) - 1; math.Abs(off) > c.tol {
			t.Errorf("%s: %d tokens, %+.2f%% from the logged %d (allowed %.1f%%)", c.name, tok, 100*off, c.logged, 100*c.tol)
		}
		conc := float64(tok) / kimiK3ForkMaxModelLen
		if off := conc/kimiK3ForkLoggedConc - 1; math.Abs(off) > 0.1 {
			t.Errorf("%s: %.2fx against the logged 1.01x (%+.1f%%)", c.name, conc, 100*off)
		}
	}
}

// TestKimiK3WithoutDCPUnchanged: DCP 1 leaves the hybrid's pages as before
// (the TP 8 layout of TestKimiK3KVAndState, 86 attention pages and 3 × 2
// state pages for 65,536 tokens), so the change above moves only inputs
// with decode context parallelism.
func TestKimiK3WithoutDCPUnchanged(t *testing.T) {
	in := gemma4Input(t, "kimi-k3.verbatim.json", "b200", 8, 65536, 8192)
	in.DCP = 1
	kv := KVBytes(in, Stage{First: 0, End: 93})
	if want := int64((86 + 3*2) * 24 * 884736); kv.SequenceBytes(65536, in.BlockSize) != want {
		t.Errorf("DCP 1: one 65,536-token sequence %d B, want %d", kv.SequenceBytes(65536, in.BlockSize), want)
	}
	in.DCP = 2
	kv = KVBytes(in, Stage{First: 0, End: 93})
	if want := int64((43 + 3*2) * 24 * 884736); kv.SequenceBytes(65536, in.BlockSize) != want {
		t.Errorf("DCP 2: one 65,536-token sequence %d B, want %d (ceil(32,768 / 768) = 43 attention pages)", kv.SequenceBytes(65536, in.BlockSize), want)
	}
}

// TestKimiK3DCPForkLogEndToEnd: the HH start-up end to end, with its
// kv_cache_memory_bytes in extra_args (resolve reads it; vLLM reserves it
// as given and skips profiling): available 1.86e9 B = 1.7323 GiB exactly,
// and the logged tokens by the release's rule (two state pages a group at
// 0.24.0) 1,036,727 (−1.7% against the log's 1,054,602; one page, as the
// log implies, exact: TestKimiK3DCPForkLogKVFromGivenMemory). Without the
// flag the pool would be what utilization 0.985 leaves after vlaunch's
// stock-vLLM weights, not the fork's.
func TestKimiK3DCPForkLogEndToEnd(t *testing.T) {
	r := Estimate(kimiK3ForkInput(t, "--kv-cache-memory-bytes", "1860000000"))
	s := r.Stages[0]
	if !s.KVGiven || s.AvailableKVGiB != kimiK3ForkHHPoolBytes/GiB {
		t.Fatalf("available %.6f GiB (given %v), want the given %.6f", s.AvailableKVGiB, s.KVGiven, kimiK3ForkHHPoolBytes/GiB)
	}
	if !r.PerGPU.KVGiven || r.PerGPU.KVCacheGiB != s.AvailableKVGiB {
		t.Errorf("per-GPU table: KV %.4f GiB, given %v", r.PerGPU.KVCacheGiB, r.PerGPU.KVGiven)
	}
	if r.KVTokensLogged != 1_036_727 {
		t.Errorf("logged tokens %d, want 1,036,727 (175 blocks / 177 a request × 1,048,576)", r.KVTokensLogged)
	}
	if off := float64(r.KVTokensLogged)/kimiK3ForkHHTokens - 1; math.Abs(off) > 0.1 {
		t.Errorf("%d tokens, %+.1f%% from the log", r.KVTokensLogged, 100*off)
	}
	t.Logf("available %.4f GiB (given), %d tokens (log 1,054,602), %.3fx at max_model_len; utilization would have left %.2f GiB",
		s.AvailableKVGiB, r.KVTokensLogged, r.MaxConcurrencyAtMaxModelLen, s.LeftByUtilizationGiB)
}
