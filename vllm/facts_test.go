package vllm

import (
	"strings"
	"testing"
)

func TestResolveMatch(t *testing.T) {
	for _, tt := range []struct {
		in      string
		match   Match
		outside bool
	}{
		{"0.10.1.1", MatchExact, false},
		{"0.8.5", MatchExact, false},
		{"0.19.3", MatchApprox, false},
		{"0.4.3", MatchOlder, true},
		{"0.31.0", MatchExact, false},
		{"0.31.1", MatchApprox, false}, // 0.32.0 is in the table now
		{"0.34.0", MatchExact, false},
		{"0.34.1", MatchNewer, true},
		{"0.27.1", MatchExact, false},
	} {
		r, w, err := ResolveString(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if r.Match != tt.match || r.Outside() != tt.outside || r.Requested.String() != tt.in {
			t.Errorf("%s: match %v outside %v requested %s, want %v %v", tt.in, r.Match, r.Outside(), r.Requested, tt.match, tt.outside)
		}
		if (tt.match == MatchExact) != (len(w) == 0) {
			t.Errorf("%s: warnings %v for match %v", tt.in, w, r.Match)
		}
	}
}

func TestEngineStartup(t *testing.T) {
	for _, tt := range []struct {
		v                   string
		ready, hs, mismatch Presence
	}{
		{"0.9.0", Absent, Present, Absent},
		{"0.11.0", Absent, Present, Absent},
		// flagspans45: vllm/envs.py registers VLLM_ENGINE_READY_TIMEOUT_S from the
		// v0.14.0 tag (absent at v0.13.0), so 0.11.1 has no such variable.
		{"0.11.1", Absent, Present, Present},
		{"0.13.0", Absent, Present, Present},
		{"0.14.0", Present, Present, Present},
	} {
		s := rel(t, tt.v).EngineStartup()
		if s.ReadyTimeoutEnv != tt.ready || s.HeadlessHandshake != tt.hs || s.ConfigMismatchCheck != tt.mismatch {
			t.Errorf("%s: startup %+v", tt.v, s)
		}
	}
}

func TestImageKernels(t *testing.T) {
	for _, tt := range []struct {
		v            string
		deepEP, pplx Presence
	}{
		{"0.9.2", Absent, Absent},
		{"0.10.1", Absent, Absent},
		{"0.10.2", Present, Present},
		{"0.22.1", Present, Absent},
	} {
		k := rel(t, tt.v).ImageKernels()
		if k.DeepEP != tt.deepEP || k.PPLX != tt.pplx || k.Verified {
			t.Errorf("%s: image kernels %+v", tt.v, k)
		}
	}
}

func TestDBORequirement(t *testing.T) {
	d := rel(t, "0.11.0").DBORequirement()
	if !d.Accepts(BackendDeepEPLowLatency) || !d.Accepts(BackendDeepEPHighThroughput) || d.Accepts(BackendAllgatherReducescatter) {
		t.Errorf("0.11.0 DBO backends %v", d.Backends)
	}
	if d := rel(t, "0.17.1").DBORequirement(); !d.Accepts(BackendDeepEPHighThroughput) || d.Accepts(BackendAllgatherReducescatter) {
		t.Errorf("0.17.1 DBO backends %v", d.Backends)
	}
	if d := rel(t, "0.10.2").DBORequirement(); d.Available != Absent {
		t.Errorf("0.10.2 has no --enable-dbo: %v", d.Available)
	}
}

func TestExecutorRule(t *testing.T) {
	if e := rel(t, "0.5.4").ExecutorRule(); !e.CUDAFallsBackToRay || e.OtherPlatformsFallBack || e.NNodes != Absent {
		t.Errorf("0.5.4: %+v", e)
	}
	if e := rel(t, "0.11.0").ExecutorRule(); !e.CUDAFallsBackToRay {
		t.Errorf("0.11.0 falls back to Ray: %+v", e)
	}
	if e := rel(t, "0.11.1").ExecutorRule(); e.CUDAFallsBackToRay || e.NNodes != Present {
		t.Errorf("0.11.1 refuses: %+v", e)
	}
	if e := rel(t, "0.12.0").ExecutorRule(); e.NNodes != Present {
		t.Errorf("0.12.0 has --nnodes: %+v", e)
	}
}

func TestDPLoadBalancing(t *testing.T) {
	primary := DPNode{Size: 32, LocalSizeSet: true, LocalSize: 8}
	secondary := DPNode{Size: 32, LocalSizeSet: true, LocalSize: 8, StartRankSet: true, StartRank: 8}
	headless := secondary
	headless.Headless = true
	zero := primary
	zero.StartRankSet = true
	one := secondary
	one.LocalSize = 1
	zeroOne := zero
	zeroOne.LocalSize = 1
	hybridNoLocal := DPNode{Size: 4, HybridFlag: true}
	for _, tt := range []struct {
		v    string
		n    DPNode
		want LBMode
	}{
		{"0.9.2", secondary, LBInternal}, // no hybrid LB yet
		{"0.11.1", primary, LBInternal},
		{"0.11.1", secondary, LBHybrid},
		{"0.11.1", headless, LBHeadless},
		{"0.11.1", zero, LBInternal}, // a start rank of 0 does not infer hybrid
		{"0.11.1", one, LBExternal},
		{"0.11.1", hybridNoLocal, LBInvalid},
		{"0.11.1", DPNode{Size: 4, RankSet: true}, LBExternal},
		// From 0.28 an explicit start rank 0 infers hybrid LB like any
		// other (external with one local rank); 0.27 still ignores it.
		{"0.27.0", zero, LBInternal},
		{"0.28.0", zero, LBHybrid},
		{"0.30.0", zeroOne, LBExternal},
		{"0.28.0", primary, LBInternal}, // no start rank at all
		// Multi-port external LB: the start rank places the supervisor's
		// external-LB children and infers no hybrid LB (serve.py at 00a5fdd2).
		{"0.28.0", DPNode{Size: 16, StartRankSet: true, StartRank: 8, LocalSizeSet: true, LocalSize: 8, MultiPortFlag: true}, LBExternal},
	} {
		if got, why := rel(t, tt.v).DPLoadBalancing(tt.n); got != tt.want || why == "" {
			t.Errorf("%s %+v: %s (%s), want %s", tt.v, tt.n, got, why, tt.want)
		}
	}
	// 0.16.0 counts an explicit start rank 0 as hybrid when defaulting the
	// API server count; 0.11.1 still starts one.
	if n, _ := rel(t, "0.16.0").DefaultAPIServers(zero); n != 8 {
		t.Errorf("0.16.0 start-rank 0: %d API servers, want 8", n)
	}
	if n, _ := rel(t, "0.16.0").DefaultAPIServers(primary); n != 32 {
		t.Errorf("0.16.0 internal LB: %d API servers, want 32", n)
	}
	if n, _ := rel(t, "0.11.1").DefaultAPIServers(zero); n != 1 {
		t.Errorf("0.11.1: %d API servers, want 1", n)
	}
	multi := DPNode{Size: 16, StartRankSet: true, StartRank: 8, LocalSizeSet: true, LocalSize: 8, MultiPortFlag: true}
	if n, _ := rel(t, "0.22.1").DefaultAPIServers(multi); n != 1 {
		t.Errorf("0.22.1 multi-port: %d API servers, want 1 (each child its own)", n)
	}
}

func TestRayEnvCopy(t *testing.T) {
	for _, tt := range []struct {
		v, name string
		want    bool
	}{
		{"0.7.3", "VLLM_USE_V1", true},
		{"0.7.3", "VLLM_ALL2ALL_BACKEND", false},
		{"0.10.0", "VLLM_ALL2ALL_BACKEND", true},
		{"0.10.0", "VLLM_HOST_IP", false},
		{"0.10.0", "NCCL_SOCKET_IFNAME", false},
		{"0.10.0", "HF_TOKEN", false},
		{"0.11.0", "HF_TOKEN", true},
		// PR #34383's prefix copy: not in the v0.16.0 release branch, in
		// 0.19.0 (factaudit2, srcFARayExtra).
		{"0.16.0", "NCCL_SOCKET_IFNAME", false},
		{"0.19.0", "NCCL_SOCKET_IFNAME", true},
		{"0.30.0", "GLOO_SOCKET_IFNAME", false},
		{"0.30.0", "CUDA_VISIBLE_DEVICES", false},
	} {
		r := rel(t, tt.v)
		if got := r.RayEnvCopy().Copies(r, tt.name); got != tt.want {
			t.Errorf("%s: copies %s = %v, want %v", tt.v, tt.name, got, tt.want)
		}
	}
}

func TestSpeculative(t *testing.T) {
	for _, tt := range []struct {
		v          string
		json, old  Presence
		mtp        string
		acceptsMTP Presence
	}{
		{"0.6.4", Absent, Present, "deepseek_mtp", Maybe},
		{"0.8.2", Present, Present, "deepseek_mtp", Maybe},
		{"0.10.2", Present, Absent, "deepseek_mtp", Maybe},
		{"0.11.0", Present, Absent, "mtp", Present},
		{"0.12.0", Present, Absent, "mtp", Present},
	} {
		s := rel(t, tt.v).Speculative()
		if s.JSONFlag != tt.json || s.OldFlags != tt.old || s.MTPMethod != tt.mtp || s.Accepts("mtp") != tt.acceptsMTP {
			t.Errorf("%s: %+v accepts(mtp)=%v", tt.v, s, s.Accepts("mtp"))
		}
	}
	if rel(t, "0.11.0").Speculative().Accepts("suffix") != Absent {
		t.Error("suffix is not in 0.11.0's SpeculativeMethod Literal")
	}
}

func TestMLABlockSize(t *testing.T) {
	for _, tt := range []struct {
		backend string
		size    int
		forced  bool
	}{{MLAFlashMLA, 64, true}, {MLACutlass, 128, true}, {MLAFlashInfer, 64, true}, {MLATriton, 0, false}} {
		if s, ok := MLABlockSize(tt.backend); s != tt.size || ok != tt.forced {
			t.Errorf("%s: %d %v", tt.backend, s, ok)
		}
	}
	for _, tt := range []struct {
		version       string
		sm            int
		fp8KV, sparse bool
		want          string
	}{
		{"0.7.3", 9, false, false, MLATriton}, {"0.8.5", 9, false, false, MLAFlashMLA}, {"0.11.0", 9, false, false, MLAFlashMLA},
		{"0.11.1", 9, false, false, MLAFlashAttn}, {"0.19.0", 9, false, false, MLAFlashAttn}, {"0.19.0", 9, true, false, MLAFlashMLA},
		{"0.11.0", 8, false, false, MLATriton}, {"0.11.0", 10, false, false, MLACutlass}, {"0.14.0", 10, false, false, MLAFlashInfer},
		{"0.11.0", 9, false, true, MLAFlashMLASparse}, {"0.11.0", 0, false, false, MLATriton},
	} {
		r, _, err := ResolveString(tt.version)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := r.MLABackend(tt.sm, tt.fp8KV, tt.sparse); got != tt.want {
			t.Errorf("%s sm%d fp8 %v sparse %v: %s, want %s", tt.version, tt.sm, tt.fp8KV, tt.sparse, got, tt.want)
		}
	}
	if p, _ := rel(t, "0.8.5").MLAFP8KV(MLAFlashMLA); p != Absent {
		t.Errorf("0.8.5 FlashMLA FP8 KV = %v, want absent (issue #18888)", p)
	}
}

func TestFrontendRPCAndEras(t *testing.T) {
	if f := rel(t, "0.5.4").FrontendRPC(); f.FixedTCPPort != 5570 || f.PortEnv != "VLLM_RPC_PORT" {
		t.Errorf("0.5.4: %+v", f)
	}
	for _, v := range []string{"0.5.3", "0.5.5"} {
		if f := rel(t, v).FrontendRPC(); f.FixedTCPPort != 0 {
			t.Errorf("%s: %+v", v, f)
		}
	}
	if e := rel(t, "0.6.6").EngineEra(); e.V1 != Absent || e.V0 != Present {
		t.Errorf("0.6.6: %+v", e)
	}
	if e := rel(t, "0.8.0").EngineEra(); e.V1Default != Present || e.V0 != Present {
		t.Errorf("0.8.0: %+v", e)
	}
	if e := rel(t, "0.11.0").EngineEra(); e.V0 != Absent {
		t.Errorf("0.11.0: %+v", e)
	}
}

// TestOldReleaseFlags pins the flags of the releases below 0.9.
func TestOldReleaseFlags(t *testing.T) {
	for _, tt := range []struct {
		v, flag string
		want    Presence
	}{
		{"0.5.3", "--worker-use-ray", Present},
		{"0.6.6", "--worker-use-ray", Present},
		{"0.7.0", "--worker-use-ray", Absent},
		{"0.5.3", "--tensor-parallel-size", Present},
		{"0.5.3", "--data-parallel-size", Absent},
		// flagspans45: arg_utils.py at the v0.8.3 tag has --data-parallel-size.
		{"0.8.4", "--data-parallel-size", Present},
		{"0.8.2", "--data-parallel-size", Absent},
		{"0.9.0", "--headless", Present},
		{"0.5.3", "--disable-frontend-multiprocessing", Absent},
		{"0.5.4", "--disable-frontend-multiprocessing", Present},
		{"0.7.1", "--speculative-model", Present},
		{"0.8.2", "--speculative-config", Present},
		// flagspans45: arg_utils.py has it from the v0.5.5 tag to v0.10.0.
		{"0.5.4", "--num-scheduler-steps", Absent},
		{"0.5.5", "--num-scheduler-steps", Present},
	} {
		r := rel(t, tt.v)
		got := Absent
		if f, ok := r.Flag(tt.flag); ok {
			got = f.In(r.Version)
		}
		if got != tt.want {
			t.Errorf("%s %s: %v, want %v", tt.v, tt.flag, got, tt.want)
		}
	}
	// 0.5.x-0.6.x know only the ray and mp executors and block sizes 8/16/32.
	f, _ := rel(t, "0.6.3").Flag("--distributed-executor-backend")
	if f.HasChoice("uni") || !f.HasChoice("ray") {
		t.Errorf("0.6.3 executor choices %v", f.Choices)
	}
	if f, _ := rel(t, "0.6.3").Flag("--block-size"); f.HasChoice("64") {
		t.Errorf("0.6.3 block sizes %v", f.Choices)
	}
	if !strings.Contains(rel(t, "0.5.4").Note, "ZMQ") {
		t.Error("0.5.4 note must describe the frontend RPC")
	}
}

func TestSparseMLA(t *testing.T) {
	for _, tt := range []struct {
		version string
		sm      int
		ok      bool
	}{{"0.11.0", 9, true}, {"0.11.0", 10, true}, {"0.11.0", 0, true}, {"0.11.0", 8, false}, {"0.10.2", 9, false}} {
		if ok, why, _ := rel(t, tt.version).SparseMLA(tt.sm); ok != tt.ok || ok != (why == "") {
			t.Errorf("%s sm%d: %v %q", tt.version, tt.sm, ok, why)
		}
	}
}

// TestHeadlessFactsFollowTheFlagTable: the headless facts take their spans
// from the flag table's entries (one record of each change), so a release
// the table is unsure about is unsure here too.
func TestHeadlessFactsFollowTheFlagTable(t *testing.T) {
	for _, tt := range []struct {
		v       string
		refuses Presence
		ignored Presence
	}{
		{"0.8.3", Absent, Absent},    // no --headless yet
		{"0.8.4", Absent, Absent},    // no --headless: serve.py registers it from the v0.9.0 tag (flagspans45)
		{"0.12.0", Absent, Present},  // api_server_count < 1 or headless: the count is ignored
		{"0.14.1", Absent, Present},  // v0.14.1 serve.py ignores the count
		{"0.15.0", Present, Present}, // v0.15.0 serve.py:53-59 raises (qa44a F7)
		{"0.16.0", Present, Present},
		{"0.22.1", Present, Maybe}, // the module's behaviour is read up to 0.17.1
	} {
		r := rel(t, tt.v)
		if got, _ := r.HeadlessRefusesAPIServerCount(); got != tt.refuses {
			t.Errorf("%s: HeadlessRefusesAPIServerCount = %s, want %s", tt.v, got, tt.refuses)
		}
		if got, _ := r.APIServerModuleIgnoresHeadless(); got != tt.ignored {
			t.Errorf("%s: APIServerModuleIgnoresHeadless = %s, want %s", tt.v, got, tt.ignored)
		}
	}
}

// TestMaxCompletionTokens: a request asks for no more output than
// max_model_len leaves beside its prompt, and for at least one token.
func TestMaxCompletionTokens(t *testing.T) {
	for _, tc := range []struct{ maxLen, prompt, wanted, want int }{
		{8192, 2048, 512, 512}, // fits
		{8192, 8000, 512, 192}, // capped at what is left
		{8192, 8192, 512, 1},   // nothing left: one token
		{0, 100000, 512, 512},  // no limit known
		{1000000, 907041, 999872, 92959},
	} {
		if got := MaxCompletionTokens(tc.maxLen, tc.prompt, tc.wanted); got != tc.want {
			t.Errorf("MaxCompletionTokens(%d, %d, %d) = %d, want %d", tc.maxLen, tc.prompt, tc.wanted, got, tc.want)
		}
	}
}

// TestArchitectureRegisteredSince: the registry's class names map to the
// first release that has them (MiniMax-M3's Sparse classes: 0.24.0, PR
// #45381 merged after v0.23.0 was cut); a class the table does not cover
// (HunyuanImage-3's, or MiniMax-M3's config name the registry does not
// know) is unknown, not refused.
func TestArchitectureRegisteredSince(t *testing.T) {
	v, src, ok := ArchitectureRegisteredSince("MiniMaxM3SparseForCausalLM")
	if !ok || v.String() != "0.24.0" || !strings.Contains(src, "#45381") {
		t.Errorf("MiniMaxM3SparseForCausalLM: %v %q %v", v, src, ok)
	}
	for _, n := range []string{"HunyuanImage3ForCausalMM", "MiniMaxM3ForCausalLM", ""} {
		if _, _, ok := ArchitectureRegisteredSince(n); ok {
			t.Errorf("%q: known", n)
		}
	}
}
