package vllm

import (
	"strings"
	"testing"
)

func TestUCXTLSRDMA(t *testing.T) {
	for tls, want := range map[string]Presence{
		"":                              Maybe,
		"all":                           Present,
		"cuda_copy,cuda_ipc,tcp":        Absent, // GB200 recipes (ai-dynamo/nixl#1614)
		"tcp":                           Absent,
		"rc,cuda_copy,cuda_ipc,tcp":     Present,
		"rc_x,sm,self":                  Present,
		"dc_mlx5,cuda_copy":             Present,
		"srd,cuda_copy":                 Present, // EFA
		"^cuda_ipc":                     Present,
		"^ib":                           Absent,
		"^rc,dc,ud,srd":                 Absent,
		"^rc,dc":                        Present, // ud and srd left
		" cuda_ipc , tcp ":              Absent,
		"rc,sm,self,cuda_copy,cuda_ipc": Present, // KServe's P/D sample
	} {
		if got := UCXTLSRDMA(tls); got != want {
			t.Errorf("UCXTLSRDMA(%q) = %v, want %v", tls, got, want)
		}
	}
}

// Descriptors as vLLM counts them: gpt-oss-120b (36 layers, K and V) at a
// 5,000-token prompt in blocks of 16 is 72 regions × 313 blocks = 22,536
// per decode rank; a prefill TP larger than the decode's multiplies reads
// (not for MLA's replicated latent).
func TestNixlDescriptors(t *testing.T) {
	if r := NixlRegions(36, false); r*313 != 22536 {
		t.Errorf("gpt-oss-120b regions %d", r)
	}
	if r := NixlRegions(61, true); r != 61 {
		t.Errorf("DeepSeek-V3 regions %d, want 61", r)
	}
	for _, c := range []struct {
		p, d int
		mla  bool
		want int
	}{{4, 4, false, 1}, {2, 4, false, 1}, {8, 2, false, 4}, {8, 2, true, 1}, {4, 0, false, 1}} {
		if got := NixlReadsPerDecodeRank(c.p, c.d, c.mla); got != c.want {
			t.Errorf("reads P TP%d D TP%d mla %t = %d, want %d", c.p, c.d, c.mla, got, c.want)
		}
	}
	for v, want := range map[string]Presence{"0.11.0": Absent, "0.9.2": Absent, "0.12.0": Maybe, "0.27.1": Maybe, "0.28.0": Present} {
		if got := NixlCoalescesBlocks(mustVersion(v)); got != want {
			t.Errorf("NixlCoalescesBlocks(%s) = %v, want %v", v, got, want)
		}
	}
	if KVCacheFabricMemory(Newest().Version) {
		t.Error("no release is known to allocate the KV cache with a fabric handle")
	}
}

// FuzzUCXTLSRDMA reads any UCX_TLS value without panicking, and a list
// that gains "all" or "rc" (not an exclusion list) always leaves RDMA.
func FuzzUCXTLSRDMA(f *testing.F) {
	for _, s := range []string{"cuda_copy,cuda_ipc,tcp", "^ib", "all", "", ",", "^", "rc,,", " ^ rc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := UCXTLSRDMA(s)
		if got != Absent && got != Maybe && got != Present {
			t.Fatalf("UCXTLSRDMA(%q) = %v", s, got)
		}
		if x := strings.TrimSpace(s); x != "" && x[0] != '^' {
			if UCXTLSRDMA(s+",rc") != Present {
				t.Fatalf("UCXTLSRDMA(%q) leaves no RDMA", s+",rc")
			}
		}
	})
}

// Descriptors count at the prefill's block where it is the smaller and the
// release reads between the two (from 0.11.1, read at the tag), else at
// the decode's.
func TestNixlDescriptorBlockSize(t *testing.T) {
	for _, c := range []struct {
		v    string
		p, d int
		want int
	}{
		{"0.11.1", 16, 64, 16}, {"0.24.0", 16, 64, 16}, {"0.11.0", 16, 64, 64},
		{"0.24.0", 64, 16, 16}, {"0.24.0", 16, 16, 16}, {"0.24.0", 0, 16, 16}, {"0.24.0", 48, 64, 64},
	} {
		if got := NixlDescriptorBlockSize(mustVersion(c.v), c.p, c.d); got != c.want {
			t.Errorf("%s P block %d D block %d: %d, want %d", c.v, c.p, c.d, got, c.want)
		}
	}
	if !strings.Contains(NixlHeteroTPSource(), "v0.11.0") || !strings.Contains(NixlHeteroTPSource(), "v0.11.1") {
		t.Error("the hetero-TP source names the tags it was read at")
	}
}
