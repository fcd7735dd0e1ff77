package vllm

import (
	"strings"
	"testing"
)

func rel(t *testing.T, s string) Release {
	t.Helper()
	r, w, err := ResolveString(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(w) != 0 {
		t.Fatalf("%s: unexpected warnings %v", s, w)
	}
	return r
}

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr bool
	}{
		{"0.11.1", "0.11.1", false},
		{"v0.11.1", "0.11.1", false},
		{"0.10.1.1", "0.10.1.1", false},
		{"0.11.1rc2", "0.11.1rc2", false},
		{"0.11.0.post1", "0.11.0.post1", false},
		{"0.10.2.dev12+gabc123", "0.10.2.dev12+gabc123", false},
		{"0.12", "0.12.0", false},
		{"", "", true},
		{"latest", "", true},
		{"0.11.1; rm -rf /", "", true},
		{"0.11.1 ", "", true},
		{"1", "", true},
		{"0.11.1\n", "", true},
	}
	for _, tt := range tests {
		v, err := ParseVersion(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseVersion(%q) err = %v, wantErr %v", tt.in, err, tt.wantErr)
			continue
		}
		if err == nil && v.String() != tt.want {
			t.Errorf("ParseVersion(%q) = %s, want %s", tt.in, v, tt.want)
		}
	}
}

func TestCompareIgnoresExtra(t *testing.T) {
	a, b := mustVersion("0.10.1.1"), mustVersion("0.10.1")
	if a.Compare(b) != 0 {
		t.Errorf("0.10.1.1 vs 0.10.1 = %d, want 0", a.Compare(b))
	}
	if !mustVersion("0.9.2").Less(mustVersion("0.10.0")) {
		t.Error("0.9.2 must be < 0.10.0 (numeric, not lexical)")
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		in, want string
		warn     string // substring; "" = no warning
	}{
		{"0.11.1", "0.11.1", ""},
		{"0.10.1.1", "0.10.1.1", ""},
		{"0.11.1rc2", "0.11.1rc2", ""},
		{"0.19.3", "0.19.1", "not in vlaunch's release table"},
		{"0.31.1", "0.31.0", "not in vlaunch's release table"},
		{"0.8.5", "0.8.5", ""},
		{"0.6.3.post1", "0.6.3.post1", ""},
		{"0.5.3", "0.5.3", ""},
		{"0.5.2", "0.5.3", "older than the oldest"},
		{"0.4.3", "0.5.3", "older than the oldest"},
		{"1.0.0", "0.34.0", "newer than the newest"},
		// Patch releases and 0.31.0 resolve exactly (issue #23: they fell
		// back to x.y.0 with a warning).
		{"0.15.1", "0.15.1", ""},
		{"0.19.1", "0.19.1", ""},
		{"0.20.1", "0.20.1", ""},
		{"0.20.2", "0.20.2", ""},
		{"0.25.1", "0.25.1", ""},
		{"0.27.1", "0.27.1", ""},
		{"0.31.0", "0.31.0", ""},
		// The releases after 0.31.0 (release_exists.go cites them): they
		// resolve to themselves, not to 0.31.0 with "newer than the newest".
		{"0.32.0", "0.32.0", ""},
		{"0.33.0", "0.33.0", ""},
		{"0.34.0", "0.34.0", ""},
		{"0.33.0rc1", "0.33.0rc1", ""},
		{"0.32.1", "0.32.0", "not in vlaunch's release table"},
		{"0.34.1", "0.34.0", "newer than the newest"},
		{"0.35.0", "0.34.0", "newer than the newest"},
	}
	for _, tt := range tests {
		r, w, err := ResolveString(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if r.String() != tt.want {
			t.Errorf("Resolve(%s) = %s, want %s", tt.in, r, tt.want)
		}
		got := strings.Join(w, "\n")
		if (tt.warn == "") != (got == "") || !strings.Contains(got, tt.warn) {
			t.Errorf("Resolve(%s) warnings = %q, want containing %q", tt.in, got, tt.warn)
		}
	}
}

// TestReleasesAfter031 pins the releases published after 0.31.0 (issue #23,
// "the release table reaches the newest release"): each resolves exactly,
// with Match exact and its own version, not to x.y.0 or 0.31.0; none is
// Verified, because no file of the release was read (its note says only
// that it exists, and how that is known); 0.34.0 is the newest.
func TestReleasesAfter031(t *testing.T) {
	for _, v := range []string{"0.32.0", "0.33.0", "0.34.0"} {
		r, w, err := ResolveString(v)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Exact() || r.Version.String() != v || len(w) != 0 {
			t.Errorf("Resolve(%s) = %s (%s), warnings %q; want itself, exact, no warning", v, r, r.Match, w)
		}
		if r.Verified || r.Source != "" {
			t.Errorf("%s: Verified %v, Source %q; no file of it was read", v, r.Verified, r.Source)
		}
		if !strings.HasPrefix(r.Note, "exists: ") {
			t.Errorf("%s: note %q does not cite what shows the release exists", v, r.Note)
		}
	}
	if got := Newest().Version.String(); got != "0.34.0" {
		t.Errorf("Newest() = %s, want 0.34.0", got)
	}
	// The 0.31.0 row keeps its own evidence, and 0.31.1 (an rc0 tag without
	// an image, no final seen) stays unlisted: it falls back to 0.31.0.
	if r, w, _ := ResolveString("0.31.1"); r.Version.String() != "0.31.0" || r.Match != MatchApprox || len(w) != 1 {
		t.Errorf("Resolve(0.31.1) = %s (%s), %q; want 0.31.0 approximated with a warning", r, r.Match, w)
	}
}

func TestFlagAcrossVersions(t *testing.T) {
	tests := []struct {
		version, flag string
		want          bool
	}{
		{"0.11.0", "--all2all-backend", false},
		{"0.11.1", "--all2all-backend", true},
		{"0.30.0", "--all2all-backend", true},
		{"0.17.1", "--swap-space", true},
		{"0.18.0", "--swap-space", false},
		{"0.9.0", "--api-server-count", false},
		{"0.9.1", "--api-server-count", true},
		{"0.9.0", "--headless", true},
		{"0.11.0", "--nnodes", false},
		{"0.11.2", "--nnodes", true}, // may exist (PR #23691); Defaults do not rely on it
		{"0.12.0", "--nnodes", true},
		{"0.12.0", "-n", true},
		{"0.11.0", "--num-redundant-experts", true},
		{"0.22.1", "--num-redundant-experts", false},
		{"0.10.2", "--eplb-config", true},
		{"0.10.1", "--eplb-config", false},
		{"0.11.1", "--optimization-level", false},
		{"0.12.0", "--optimization-level", true},
		// spellings
		{"0.11.1", "tensor-parallel-size", true},
		{"0.11.1", "--tensor_parallel_size", true},
		{"0.11.1", "--tensor-parallel-size=8", true},
		{"0.11.1", "-tp", true},
		{"0.11.1", "--no-enable-expert-parallel", true},
		{"0.11.1", "--no-headless", false}, // store_true has no --no- form
		{"0.11.1", "--no-tensor-parallel-size", false},
		{"0.11.1", "--definitely-not-a-flag", false},
		{"0.11.1", "-zz", false},
	}
	for _, tt := range tests {
		r := rel(t, tt.version)
		_, ok := r.Flag(tt.flag)
		if ok != tt.want {
			t.Errorf("%s: Flag(%q) = %v, want %v", tt.version, tt.flag, ok, tt.want)
		}
	}
}

func TestOMeaningChanges(t *testing.T) {
	for _, tt := range []struct{ version, want string }{
		{"0.11.2", "compilation-config"},
		{"0.12.0", "optimization-level"},
	} {
		r := rel(t, tt.version)
		f, ok := r.Flag("-O3")
		if !ok || f.Name != tt.want {
			t.Errorf("%s: -O3 = %v, want %s", tt.version, f, tt.want)
		}
		if got := r.Defaults().OFlag; got != tt.want {
			t.Errorf("%s: Defaults().OFlag = %s, want %s", tt.version, got, tt.want)
		}
	}
	if f, ok := rel(t, "0.12.0").Flag("-cc"); !ok || f.Name != "compilation-config" {
		t.Errorf("0.12.0: -cc = %v, want compilation-config", f)
	}
	if _, ok := rel(t, "0.11.2").Flag("-cc"); ok {
		t.Error("0.11.2: -cc must not exist yet")
	}
}

func TestKnownFlagEver(t *testing.T) {
	f, ok := KnownFlagEver("--swap-space")
	if !ok || f.Removed.String() != "0.18.0" {
		t.Fatalf("swap-space: %v %v, want removed 0.18.0", f, ok)
	}
	f, ok = KnownFlagEver("all2all_backend")
	if !ok || f.Since.String() != "0.11.1" {
		t.Fatalf("all2all-backend: %v, want since 0.11.1", f)
	}
	if _, ok := KnownFlagEver("--bogus"); ok {
		t.Error("bogus flag known")
	}
	if h := FlagHistory("--gpu-memory-utilization"); len(h) != 2 {
		t.Errorf("gpu-memory-utilization history has %d entries, want 2", len(h))
	}
}

func TestDefaultsByVersion(t *testing.T) {
	tests := []struct {
		version   string
		util      float64
		asc       int
		ascAuto   bool
		backend   string
		via       Mechanism
		multiNode string
		swap      bool
	}{
		{"0.9.0", 0.9, 1, false, BackendNaive, ViaEnv, "ray", true},
		{"0.10.1", 0.9, 1, false, BackendNaive, ViaEnv, "ray", true},
		{"0.10.2", 0.9, 1, false, BackendNaive, ViaEnv, "ray", true},
		{"0.11.0", 0.9, 1, false, BackendAllgatherReducescatter, ViaEnv, "ray", true},
		{"0.11.1", 0.9, 1, false, BackendAllgatherReducescatter, ViaFlag, "nnodes", true},
		{"0.11.2", 0.9, 1, false, BackendAllgatherReducescatter, ViaFlag, "nnodes", true},
		{"0.12.0", 0.9, 1, false, BackendAllgatherReducescatter, ViaFlag, "nnodes", true},
		{"0.16.0", 0.9, 0, true, BackendAllgatherReducescatter, ViaFlag, "nnodes", true},
		{"0.18.0", 0.9, 0, true, BackendAllgatherReducescatter, ViaFlag, "nnodes", false},
		{"0.22.1", 0.92, 0, true, BackendAllgatherReducescatter, ViaFlag, "nnodes", false},
	}
	for _, tt := range tests {
		d := rel(t, tt.version).Defaults()
		if d.GPUMemoryUtilization != tt.util || d.APIServerCount != tt.asc || d.APIServerCountAuto != tt.ascAuto ||
			d.All2AllBackend != tt.backend || d.All2AllVia != tt.via || d.MultiNodeEngine != tt.multiNode || d.HasSwapSpace != tt.swap {
			t.Errorf("%s: Defaults() = %+v", tt.version, d)
		}
	}
}

func TestBatchDefaults(t *testing.T) {
	r := Newest()
	for _, tt := range []struct {
		gpu            string
		gib            float64
		api            bool
		seqs, batchTok int
	}{
		{"H20", 95.6, true, 1024, 8192},
		{"H100", 79.6, false, 1024, 16384},
		{"A100-80GB", 79.2, true, 256, 2048},
		{"L40S", 44.4, true, 256, 2048},
		{"L40S", 44.4, false, 256, 8192},
	} {
		s, b := r.BatchDefaults(tt.gpu, tt.gib, tt.api)
		if s != tt.seqs || b != tt.batchTok {
			t.Errorf("BatchDefaults(%s, %v, %v) = %d/%d, want %d/%d", tt.gpu, tt.gib, tt.api, s, b, tt.seqs, tt.batchTok)
		}
	}
}

func TestAll2AllBackends(t *testing.T) {
	has := func(v, name string) bool { _, ok := rel(t, v).All2AllBackend(name); return ok }
	// PR #23964 reached main on 2025-09-18, after 0.10.2: 0.10.x raises
	// "Unknown all2all backend" for it.
	for _, v := range []string{"0.9.2", "0.10.0", "0.10.1", "0.10.2"} {
		if has(v, BackendAllgatherReducescatter) {
			t.Errorf("allgather_reducescatter listed in %s", v)
		}
	}
	if has("0.9.0", BackendDeepEPLowLatency) {
		t.Error("0.9.0 has no DeepEP managers (0.9.0.1 all2all page)")
	}
	if !has("0.11.0", BackendAllgatherReducescatter) {
		t.Error("allgather_reducescatter missing in 0.11.0")
	}
	if !has("0.11.1", BackendDeepEPLowLatency) || !has("0.11.1", BackendPPLX) {
		t.Error("0.11.1 must accept deepep_low_latency and pplx")
	}
	if !has("0.22.1", "nixl_ep") || has("0.11.1", "nixl_ep") {
		t.Error("nixl_ep must appear in 0.22.x only")
	}
	b, _ := KnownBackendEver(BackendPPLX)
	if b.FallsBack(rel(t, "0.11.1")) || !b.FallsBack(rel(t, "0.22.1")) {
		t.Error("pplx falls back from 0.16.0 only")
	}
}

func TestEnvLookup(t *testing.T) {
	if _, ok := rel(t, "0.10.1").Env("VLLM_ALL2ALL_BACKEND"); !ok {
		t.Error("VLLM_ALL2ALL_BACKEND missing in 0.10.1")
	}
	if _, ok := rel(t, "0.22.1").Env("VLLM_ALL2ALL_BACKEND"); ok {
		t.Error("VLLM_ALL2ALL_BACKEND present in 0.22.1 (removed by PR #33535)")
	}
	if e, ok := KnownEnvEver("VLLM_ALL2ALL_BACKEND"); !ok || e.Deprecated.String() != "0.11.1" {
		t.Errorf("VLLM_ALL2ALL_BACKEND deprecation = %v", e)
	}
	if _, ok := rel(t, "0.9.0").Env("NCCL_IB_HCA"); !ok {
		t.Error("non-vLLM variables are valid in every release")
	}
	if e, _ := KnownEnvEver("HF_TOKEN"); e == nil || !e.Secret {
		t.Error("HF_TOKEN must be marked secret")
	}
}

// TestTableConsistency catches data mistakes: overlapping spans for one
// name, empty docs or sources, and spans that end before they start.
func TestTableConsistency(t *testing.T) {
	byName := map[string][]*Flag{}
	for i := range flagTable {
		f := &flagTable[i]
		if f.Doc == "" || f.Source == "" || f.Kind == 0 || f.Since.IsZero() {
			t.Errorf("flag %s: missing doc, source, kind or since", f.Name)
		}
		if !f.Removed.IsZero() && !f.Since.Less(f.Removed) {
			t.Errorf("flag %s: removed %s not after since %s", f.Name, f.Removed, f.Since)
		}
		for _, g := range byName[f.Name] {
			if spansOverlap(g.Span, f.Span) {
				t.Errorf("flag %s: overlapping entries %v and %v", f.Name, g.Span, f.Span)
			}
		}
		byName[f.Name] = append(byName[f.Name], f)
	}
	for _, r := range Releases() {
		if len(r.Flags()) < 45 {
			t.Errorf("%s: only %d flags", r, len(r.Flags()))
		}
		aliases := map[string]string{}
		for _, f := range r.Flags() {
			for _, a := range f.Aliases {
				if prev, dup := aliases[a]; dup {
					t.Errorf("%s: alias %s used by %s and %s", r, a, prev, f.Name)
				}
				aliases[a] = f.Name
			}
		}
	}
}
