package generator

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

func boolp(b bool) *bool { return &b }

func TestAll2AllAuto(t *testing.T) {
	tests := []struct {
		name     string
		mutate   func(d *spec.Deployment)
		want     string
		wantCode diag.Code
	}{
		{"decode-dominated over RDMA", func(d *spec.Deployment) {}, vllm.BackendDeepEPLowLatency, ""},
		{"prefill-dominated over RDMA", func(d *spec.Deployment) { d.Workload.InputTokens, d.Workload.OutputTokens = 8000, 1000 },
			vllm.BackendDeepEPHighThroughput, ""},
		{"just below the prefill ratio", func(d *spec.Deployment) { d.Workload.InputTokens, d.Workload.OutputTokens = 7999, 1000 },
			vllm.BackendDeepEPLowLatency, ""},
		{"no GPU-direct RDMA", func(d *spec.Deployment) { d.Hardware.Network.InterNode.GPUDirectRDMA = boolp(false) },
			vllm.BackendAllgatherReducescatter, CodeAll2All},
		{"DP = 1: nothing", func(d *spec.Deployment) {
			d.Parallelism.Data, d.Parallelism.Tensor = 1, 8
		}, "", ""},
		{"EP off: nothing", func(d *spec.Deployment) { d.Parallelism.Expert = false }, "", ""},
		{"explicit backend kept", func(d *spec.Deployment) { d.VLLM.All2AllBackend = "pplx" }, "pplx", ""},
		{"user's variable decides auto", func(d *spec.Deployment) { d.VLLM.Env = map[string]string{vllm.All2AllEnv: "naive"} }, "naive", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := loadSpec(t, "reference")
			tt.mutate(d)
			p, ds := plan(t, d, "bare")
			if tt.wantCode != "" && !hasCode(ds, tt.wantCode) {
				t.Fatalf("want %s, got %v", tt.wantCode, ds)
			}
			if p == nil {
				if tt.want != "" {
					t.Fatalf("no plan: %v", ds)
				}
				return
			}
			if p.All2All != tt.want {
				t.Errorf("backend = %q, want %q (%s)", p.All2All, tt.want, p.All2AllWhy)
			}
		})
	}
}

func TestBackendMechanismByVersion(t *testing.T) {
	for _, tt := range []struct {
		version       string
		wantEnv, flag bool
	}{
		{"0.10.1", true, false},
		{"0.11.0", true, false},
		{"0.11.1", false, true},
		{"0.22.1", false, true},
	} {
		d := loadSpec(t, "reference")
		d.VLLM.Version = tt.version
		b, ds := gen(t, d, Options{})
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		s := string(fileData(t, b, "node0.sh"))
		if got := strings.Contains(s, "export VLLM_ALL2ALL_BACKEND="); got != tt.wantEnv {
			t.Errorf("%s: env var present = %v, want %v", tt.version, got, tt.wantEnv)
		}
		if got := strings.Contains(s, "\n  --all2all-backend "); got != tt.flag {
			t.Errorf("%s: flag present = %v, want %v", tt.version, got, tt.flag)
		}
	}
}

func TestLayoutErrors(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(d *spec.Deployment)
		code   diag.Code
	}{
		{"too many DP ranks", func(d *spec.Deployment) { d.Parallelism.Data = 33 }, CodeLayout},
		{"spanning engine with DP > 1 before 0.11.1 (Ray only)", func(d *spec.Deployment) {
			d.VLLM.Version, d.Parallelism.Tensor, d.Parallelism.Data = "0.11.0", 16, 2
		}, CodeUnsupported},
		{"spanning engine not whole nodes", func(d *spec.Deployment) { d.Parallelism.Tensor, d.Parallelism.Data = 12, 1 }, CodeLayout},
		{"auto parallelism", func(d *spec.Deployment) { d.Parallelism.Auto = true }, CodeLayout},
		{"removed flag in extra_args", func(d *spec.Deployment) { d.VLLM.Version = "0.18.0"; d.VLLM.ExtraArgs = []string{"--swap-space", "4"} }, CodeExtraArg},
		{"flag removed before the table", func(d *spec.Deployment) { d.VLLM.ExtraArgs = []string{"--use-v2-block-manager"} }, CodeExtraArg},
		{"unknown runtime", func(d *spec.Deployment) { d.Runtime.Kind = "podman" }, CodeRuntime},
		{"DBO before 0.11", func(d *spec.Deployment) { d.VLLM.Version = "0.10.2"; d.VLLM.EnableDBO = true }, CodeUnsupported},
		{"EPLB before 0.9.2", func(d *spec.Deployment) { d.VLLM.Version = "0.9.1"; d.VLLM.EnableEPLB = true }, CodeUnsupported},
		{"kv dtype too new", func(d *spec.Deployment) { d.VLLM.Version = "0.10.1"; d.VLLM.KVCacheDType = "fp8_ds_mla" }, CodeUnsupported},
		{"block size not allowed", func(d *spec.Deployment) { bs := 256; d.VLLM.Version = "0.11.0"; d.VLLM.BlockSize = &bs }, CodeUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := loadSpec(t, "reference")
			tt.mutate(d)
			b, ds := gen(t, d, Options{})
			if b != nil || !hasCode(ds, tt.code) {
				t.Errorf("want refusal %s, got bundle=%v %v", tt.code, b != nil, ds)
			}
		})
	}
}

func TestEPLBFlagsByVersion(t *testing.T) {
	for _, tt := range []struct{ version, want string }{
		{"0.10.1", "--num-redundant-experts 32"},
		{"0.11.1", `--eplb-config '{"num_redundant_experts":32}'`},
	} {
		d := loadSpec(t, "reference")
		d.VLLM.Version, d.VLLM.EnableEPLB, d.VLLM.NumRedundantExperts = tt.version, true, 32
		b, ds := gen(t, d, Options{})
		if b == nil {
			t.Fatal(ds)
		}
		node0 := fileData(t, b, "node0.sh")
		if !bytes.Contains(node0, []byte(tt.want)) || !bytes.Contains(node0, []byte("--enable-eplb")) {
			t.Errorf("%s: want %s and --enable-eplb in:\n%s", tt.version, tt.want, node0)
		}
	}
}

// TestDBONeedsDeepEP: vLLM asserts the backend when DBO is on, so the
// generator refuses what would not start, per release.
func TestDBONeedsDeepEP(t *testing.T) {
	for _, tt := range []struct {
		version, backend string
		ok               bool
	}{
		{"0.11.0", "allgather_reducescatter", false},
		{"0.11.0", "deepep_low_latency", true},
		{"0.11.0", "deepep_high_throughput", true}, // v0.11.0 vllm/config/__init__.py:480-488 accepts it (qa44a F8)
		{"0.17.1", "deepep_high_throughput", true},
		{"0.22.1", "allgather_reducescatter", false},
	} {
		d := loadSpec(t, "reference")
		d.VLLM.Version, d.Runtime.Image = tt.version, "vllm/vllm-openai:v"+tt.version
		d.VLLM.EnableDBO, d.VLLM.All2AllBackend = true, tt.backend
		b, ds := gen(t, d, Options{})
		if (b != nil) != tt.ok || (!tt.ok && !hasCode(ds, CodeAll2All)) {
			t.Errorf("%s %s: bundle=%v, want %v: %v", tt.version, tt.backend, b != nil, tt.ok, ds)
		}
	}
	d := loadSpec(t, "reference")
	d.VLLM.EnableDBO, d.Parallelism.Expert = true, false
	if b, ds := gen(t, d, Options{}); b != nil || !hasCode(ds, CodeAll2All) {
		t.Errorf("DBO without expert parallelism: want %s, got %v", CodeAll2All, ds)
	}
}

// TestDeepEPImages: official images before the EP kernels shipped cannot
// run a DeepEP backend; a custom image or bare metal is the user's call.
func TestDeepEPImages(t *testing.T) {
	for _, tt := range []struct {
		version, image, runtime string
		sev                     string // "" = no finding
	}{
		{"0.10.1", "vllm/vllm-openai:v0.10.1", "docker", "error"},
		{"0.10.1", "docker.io/vllm/vllm-openai:v0.10.1@sha256:0123", "kubernetes", "error"},
		{"0.10.1", "registry.example.com/vllm-deepep:v0.10.1", "docker", ""},
		{"0.10.1", "vllm/vllm-openai:v0.10.1", "bare", ""},
		{"0.10.2", "vllm/vllm-openai:v0.10.2", "docker", ""},
		{"0.11.0", "vllm/vllm-openai:latest", "docker", ""},
		{"0.11.0", "vllm/vllm-openai@sha256:0123", "docker", ""},
	} {
		d := loadSpec(t, "reference")
		d.VLLM.Version, d.Runtime.Image, d.VLLM.All2AllBackend = tt.version, tt.image, "deepep_low_latency"
		b, ds := gen(t, d, Options{Runtime: tt.runtime})
		got := ""
		for _, x := range ds {
			if x.Code == CodeRuntime && strings.Contains(x.Message, "DeepEP") {
				got = x.Severity.String()
			}
		}
		if got != tt.sev || (tt.sev == "error") != (b == nil) {
			t.Errorf("%s in %s (%s): finding %q, bundle=%v; want %q: %v", tt.image, tt.runtime, tt.version, got, b != nil, tt.sev, ds)
		}
	}
}

// TestExtraArgsOutsideTable: a flag vlaunch does not know passes with a
// warning; one removed before the table's first release is refused without
// inventing a first release for it.
func TestExtraArgsOutsideTable(t *testing.T) {
	d := loadSpec(t, "reference")
	d.VLLM.ExtraArgs = []string{"--not-a-flag-vlaunch-knows", "2"}
	b, ds := gen(t, d, Options{})
	if b == nil || !hasCode(ds, CodeExtraArg) {
		t.Errorf("want a pass-through warning, got bundle=%v %v", b != nil, ds)
	}
	// flagspans45: arg_utils.py keeps --use-v2-block-manager up to the v0.9.2 tag.
	d.VLLM.ExtraArgs = []string{"--use-v2-block-manager"}
	_, ds = gen(t, d, Options{})
	if got := fmt.Sprint(ds); !strings.Contains(got, "only before 0.10.0") || strings.Contains(got, "from 0.1.0") {
		t.Errorf("want 'only before 0.10.0', got %s", got)
	}
}

func TestIdleNodes(t *testing.T) {
	d := loadSpec(t, "reference")
	d.Parallelism.Data = 16
	d.VLLM.Version = "0.19.3"
	b, ds := gen(t, d, Options{})
	if b == nil {
		t.Fatal(ds)
	}
	if !hasCode(ds, CodeIdleGPUs) {
		t.Errorf("want idle-node warnings, got %v", ds)
	}
	if len(b.Files) != 5 { // marker, README, hosts, node0.sh, node1.sh
		t.Errorf("got %d files, want 5", len(b.Files))
	}
}

// TestMissingInterface: validate warns (SPEC115); the node's script then
// sets no socket interface rather than an empty one.
func TestMissingInterface(t *testing.T) {
	d := loadSpec(t, "reference")
	d.Hardware.Nodes[2].Interface = ""
	b, ds := gen(t, d, Options{})
	if b == nil {
		t.Fatal(ds)
	}
	if bytes.Contains(fileData(t, b, "node2.sh"), []byte("GLOO_SOCKET_IFNAME")) {
		t.Error("node2.sh must not set GLOO_SOCKET_IFNAME without an interface")
	}
}

func TestStartRanksAndLocalSizes(t *testing.T) {
	d := loadSpec(t, "reference")
	d.Parallelism.Tensor, d.Parallelism.Data = 2, 16
	p, ds := plan(t, d, "bare")
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	for i, n := range p.Nodes {
		if n.DPLocal != 4 || n.DPStart != 4*i {
			t.Errorf("node %d: local %d start %d, want 4 and %d", i, n.DPLocal, n.DPStart, 4*i)
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, rt := range Runtimes {
		d1, d2 := loadSpec(t, "dp-ep-0.10.1"), loadSpec(t, "dp-ep-0.10.1")
		env := map[string]string{}
		for _, k := range []string{"Z_VAR", "A_VAR", "M_VAR", "B_VAR"} {
			env[k] = k
		}
		d1.VLLM.Env, d2.VLLM.Env = env, env
		b1, _ := gen(t, d1, Options{Runtime: rt})
		b2, _ := gen(t, d2, Options{Runtime: rt})
		if len(b1.Files) != len(b2.Files) {
			t.Fatal("file count differs")
		}
		for i := range b1.Files {
			if b1.Files[i].Path != b2.Files[i].Path || !bytes.Equal(b1.Files[i].Data, b2.Files[i].Data) {
				t.Errorf("%s: %s differs between runs", rt, b1.Files[i].Path)
			}
		}
	}
}

func TestSummaryHook(t *testing.T) {
	b, _ := gen(t, loadSpec(t, "reference"), Options{Summary: "throughput: **infeasible** (needs 4 ms steps)"})
	if readme := fileData(t, b, "README.md"); !bytes.Contains(readme, []byte("## Feasibility\n\nthroughput: **infeasible**")) {
		t.Errorf("summary missing from README:\n%s", readme)
	}
}

func TestTemplateOverride(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "hosts.tmpl"), []byte("custom {{.Plan.Name}}\n"), 0o644)
	d := loadSpec(t, "single-node-ep")
	b, ds := gen(t, d, Options{TemplatesDir: dir})
	if b == nil {
		t.Fatal(ds)
	}
	if hosts := fileData(t, b, "hosts"); string(hosts) != "custom qwen3-moe-1xh100\n" {
		t.Errorf("hosts not overridden: %q", hosts)
	}
	if !bytes.Contains(fileData(t, b, "node0.sh"), []byte("exec vllm serve")) {
		t.Error("templates not overridden must stay the embedded ones")
	}
}

func TestTemplateErrorsCarryFileLine(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"line one\n{{.Plan.Name\n", "hosts.tmpl:2"},       // parse error
		{"a\nb\n{{.Plan.NoSuchField}}\n", "hosts.tmpl:3:"}, // execute error
		{"{{env \"HOME\"}}\n", "hosts.tmpl:1"},             // env is not available
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "hosts.tmpl"), []byte(tt.text), 0o644)
		_, ds := gen(t, loadSpec(t, "single-node-ep"), Options{TemplatesDir: dir})
		if !hasCode(ds, CodeTemplate) || !strings.Contains(ds[len(ds)-1].Message, filepath.Join(dir, tt.want)) {
			t.Errorf("template %q: want an error at %s, got %v", tt.text, tt.want, ds)
		}
	}
}

func TestMissingKeyIsError(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "hosts.tmpl"), []byte(`{{$m := dict "a" 1}}{{$m.b}}`), 0o644)
	_, ds := gen(t, loadSpec(t, "single-node-ep"), Options{TemplatesDir: dir})
	if !hasCode(ds, CodeTemplate) {
		t.Errorf("missing map key must fail (missingkey=error), got %v", ds)
	}
}

// TestUnsupportedFlagText: the refusal words the flag's first release as
// resolve.MissingFlag does ("added in" only for a pinned release).
func TestUnsupportedFlagText(t *testing.T) {
	d := loadSpec(t, "reference")
	d.VLLM.Version, d.VLLM.EnableDBO = "0.10.2", true
	_, ds := gen(t, d, Options{})
	want := "vLLM 0.10.2 has no --enable-dbo (added in 0.11.0)"
	for _, x := range ds {
		if x.Code == CodeUnsupported && x.Message == want {
			return
		}
	}
	t.Errorf("want %q among %v", want, ds)
}

// TestSpanningDPRanks: DP ranks whose engine spans nodes (TP 16 on 8-GPU
// nodes, DP 2) run from 0.11.1 with --nnodes: every node runs `vllm serve
// --data-parallel-size 2 --nnodes 4 --node-rank R` against node 0's
// master address, and every node but node 0 is headless. vLLM's
// arg_utils.py (v0.24.0) infers node R's DP rank as R × 8 / 16 and its
// local DP size as 1, so no --data-parallel-size-local or start rank is
// written (either would override that inference); the DP RPC port is the
// spec's, each rank's first node handshaking with node 0 (the DP address
// defaults to --master-addr with the mp backend).
func TestSpanningDPRanks(t *testing.T) {
	d := loadSpec(t, "reference")
	d.VLLM.Version, d.Parallelism.Tensor, d.Parallelism.Data = "0.24.0", 16, 2
	b, ds := gen(t, d, Options{})
	if b == nil {
		t.Fatal(ds)
	}
	for i, n := range d.Hardware.Nodes {
		s := string(fileData(t, b, fmt.Sprintf("node%d.sh", i)))
		for _, want := range []string{"--data-parallel-size 2", "--data-parallel-rpc-port 13345", "--nnodes 4", fmt.Sprintf("--node-rank %d", i),
			"--master-addr " + d.Hardware.Nodes[0].Address, "--tensor-parallel-size 16"} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: no %q", n.Name, want)
			}
		}
		for _, not := range []string{"--data-parallel-size-local", "--data-parallel-start-rank", "--data-parallel-rank"} {
			if strings.Contains(s, not) {
				t.Errorf("%s: writes %s, which overrides vLLM's inference from --node-rank", n.Name, not)
			}
		}
		if headless := strings.Contains(s, "--headless"); headless != (i > 0) {
			t.Errorf("%s: headless %v, want %v", n.Name, headless, i > 0)
		}
	}
}
