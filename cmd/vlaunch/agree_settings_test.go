package main

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// bundleCommand is what node0.sh makes vLLM run: the flags of its
// `vllm serve` (a switch has the value ""), the variables it exports and
// the release it was generated for.
type bundleCommand struct {
	flags   map[string]string
	env     map[string]string
	version string
	readme  string
	rel     vllm.Release
	check   *estimate.InputSummary
}

// stated is how a bundle states one setting: the value vLLM runs with and
// whether the bundle wrote it (a flag, a variable, a header). When it does
// not, vLLM decides by itself: byVLLM says whether the value is vLLM's
// own default as the vllm package knows it (false: the test only demands
// that check took the value from vLLM, not from the spec or a choice of
// vlaunch's).
type stated struct {
	value   string
	written bool
	byVLLM  bool
}

// settingRules say, for every setting resolve lists, how a bundle states
// it. A setting without a rule fails TestCheckAndGenerateAgree: a new
// setting must say how the bundle carries it.
var settingRules = map[string]func(b *bundleCommand) stated{
	"vllm_version": func(b *bundleCommand) stated { return stated{value: b.version, written: b.version != ""} },
	"weights":      weightsStated,
	"kv_cache_dtype": func(b *bundleCommand) stated {
		v, ok := b.flags["kv-cache-dtype"]
		switch {
		case !ok:
			return stated{} // auto: the model's activation dtype
		case strings.HasPrefix(v, "fp8"):
			v = "fp8"
		case v == "bfloat16":
			v = "bf16"
		}
		return stated{value: v, written: true}
	},
	"gpu_memory_utilization": func(b *bundleCommand) stated {
		return flagOr(b, "gpu-memory-utilization", fmt.Sprint(b.rel.Defaults().GPUMemoryUtilization))
	},
	"max_model_len":          flagOrDerived("max-model-len"),
	"max_num_seqs":           flagOrDerived("max-num-seqs"),
	"max_num_batched_tokens": flagOrDerived("max-num-batched-tokens"),
	"block_size":             flagOrDerived("block-size"),
	"all2all_backend": func(b *bundleCommand) stated {
		if b.check.All2AllBackend == "" {
			return stated{written: true} // the kernels do not run: nothing to select
		}
		runs, _ := b.rel.All2AllSelected(b.flags["all2all-backend"], b.env[vllm.All2AllEnv])
		return stated{value: runs, written: true}
	},
	"cuda_graphs": func(b *bundleCommand) stated {
		if _, eager := b.flags["enforce-eager"]; eager {
			return stated{value: "false", written: true}
		}
		return stated{value: strconv.FormatBool(b.rel.CUDAGraphs(b.check.All2AllBackend, max(1, b.check.DP), false)), byVLLM: true}
	},
	"api_server_count": func(b *bundleCommand) stated {
		if _, ok := b.rel.Flag("api-server-count"); !ok {
			return stated{value: "1", byVLLM: true}
		}
		if v, ok := b.flags["api-server-count"]; ok {
			return stated{value: v, written: true}
		}
		n := vllm.DPNode{Size: atoiOr(b.flags["data-parallel-size"], 1)}
		if v, ok := b.flags["data-parallel-size-local"]; ok {
			n.LocalSizeSet, n.LocalSize = true, atoiOr(v, 1)
		}
		if v, ok := b.flags["data-parallel-start-rank"]; ok {
			n.StartRankSet, n.StartRank = true, atoiOr(v, 0)
		}
		_, n.HybridFlag = b.flags["data-parallel-hybrid-lb"]
		got, _ := b.rel.DefaultAPIServers(n)
		return stated{value: strconv.Itoa(got), byVLLM: true}
	},
	// The acceptance is a property of the workload, measured (vLLM logs
	// it), not a setting a bundle can state: the bundle writes the method
	// and the draft count, checked by the generator's tests.
	"mean_acceptance_length": nil,
	"decode_context_parallel_size": func(b *bundleCommand) stated {
		return flagOr(b, vllm.DCPFlag, "1")
	},
}

// weightsStated: a flag makes vLLM quantize or cast the checkpoint;
// without one vLLM serves what the checkpoint the bundle names stores (its
// dtype, or the spec's when the README says the checkpoint must be a copy
// in that dtype): stated by the checkpoint either way.
func weightsStated(b *bundleCommand) stated {
	if _, ok := b.flags["quantization"]; ok {
		return stated{value: b.flags["quantization"], written: true}
	}
	switch b.flags["dtype"] {
	case "bfloat16":
		return stated{value: "bf16", written: true}
	case "float16":
		return stated{value: "fp16", written: true}
	}
	if w := b.check.WeightsDType; w != b.check.CheckpointDType && strings.Contains(b.readme, "must be a "+w+" copy") {
		return stated{value: w, written: true}
	}
	return stated{value: b.check.CheckpointDType, written: true}
}

func flagOr(b *bundleCommand, flag, vllmDefault string) stated {
	if v, ok := b.flags[flag]; ok {
		return stated{value: v, written: true}
	}
	return stated{value: vllmDefault, byVLLM: true}
}

// flagOrDerived: the flag's value, else vLLM works the value out itself
// (from the model, the GPU, the attention backend).
func flagOrDerived(flag string) func(b *bundleCommand) stated {
	return func(b *bundleCommand) stated {
		if v, ok := b.flags[flag]; ok {
			return stated{value: v, written: true}
		}
		return stated{}
	}
}

func atoiOr(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}

var (
	serveFlagRE = regexp.MustCompile(`--([a-z0-9-]+)(?:[ =]('[^']*'|[^\s\\'-][^\s\\]*))?`)
	exportRE    = regexp.MustCompile(`(?m)^export ([A-Z0-9_]+)=(\S+)$`)
	versionRE   = regexp.MustCompile(`(?m)^# vlaunch:vllm-version=(\S+)`)
)

// readBundleCommand parses node0.sh of a bare-metal bundle: the flags after
// its last `serve`, the last export of each variable.
func readBundleCommand(files map[string]string, rel vllm.Release, in *estimate.InputSummary) *bundleCommand {
	script := files["node0.sh"]
	b := &bundleCommand{flags: map[string]string{}, env: map[string]string{}, readme: files["README.md"], rel: rel, check: in}
	if m := versionRE.FindStringSubmatch(script); m != nil {
		b.version = m[1]
	}
	for _, m := range exportRE.FindAllStringSubmatch(script, -1) {
		b.env[m[1]] = strings.Trim(m[2], "'")
	}
	if i := strings.LastIndex(script, " serve "); i >= 0 {
		for _, m := range serveFlagRE.FindAllStringSubmatch(script[i:], -1) {
			b.flags[m[1]] = strings.Trim(m[2], "'")
		}
	}
	return b
}

// assertSettingsAgree holds every setting check reports against the
// bundle: a value the bundle writes is check's; a value it leaves to vLLM
// is one check took from vLLM (a release default or derived as vLLM
// derives it), and where the vllm package knows vLLM's own default, that
// default. #27: check simulated one API server while the bundle wrote
// --api-server-count 8.
func assertSettingsAgree(t *testing.T, rep *estimate.Report, files map[string]string, rel vllm.Release) {
	t.Helper()
	b := readBundleCommand(files, rel, &rep.Input)
	if len(rep.Input.Settings) == 0 {
		t.Fatal("check -o json lists no settings")
	}
	for _, s := range rep.Input.Settings {
		rule, known := settingRules[s.Name]
		switch {
		case !known:
			t.Errorf("setting %s: no rule says how a bundle states it (add one to settingRules)", s.Name)
			continue
		case rule == nil:
			continue
		}
		got, want := rule(b), settingText(s.Value)
		switch {
		case got.written && !sameSetting(got.value, want):
			t.Errorf("%s: check uses %s (%s: %s), the bundle writes %s", s.Name, want, s.From, s.Why, got.value)
		case got.written:
		case s.From != resolve.SourceRelease && s.From != resolve.SourceDerived:
			t.Errorf("%s: check uses %s from %s (%s), the bundle leaves it to vLLM", s.Name, want, s.From, s.Why)
		case got.byVLLM && !sameSetting(got.value, want):
			t.Errorf("%s: check uses %s (%s: %s), vLLM %s runs the bundle with %s", s.Name, want, s.From, s.Why, rel, got.value)
		}
	}
}

// settingText is a JSON value as the bundle would write it.
func settingText(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

func sameSetting(a, b string) bool {
	fa, errA := strconv.ParseFloat(a, 64)
	fb, errB := strconv.ParseFloat(b, 64)
	if errA == nil && errB == nil {
		return fa == fb
	}
	return a == b
}

// unsetEngine leaves every engine setting to its default: what the
// agreement must hold for (#27), the spec's own values being the easy
// case.
func unsetEngine(d *spec.Deployment) {
	v := &d.VLLM
	v.GPUMemoryUtilization, v.MaxNumSeqs, v.MaxNumBatchedTokens, v.BlockSize, v.APIServerCount = nil, nil, nil, nil, nil
	v.KVCacheDType, v.All2AllBackend, v.EnforceEager = "auto", "auto", false
	d.Model.Weights = "auto"
	d.Workload.MaxModelLen = 0
}

// specUnset are the settings unsetEngine leaves out: in that variant check
// must take each from somewhere other than the spec.
var specUnset = []string{"weights", "kv_cache_dtype", "gpu_memory_utilization", "max_model_len", "max_num_seqs",
	"max_num_batched_tokens", "block_size", "all2all_backend", "cuda_graphs", "api_server_count"}

// assertUnset: the variant that leaves the engine settings out reached
// check without them (else it tests the spec's values again).
func assertUnset(t *testing.T, rep *estimate.Report) {
	t.Helper()
	from := map[string]resolve.Source{}
	for _, s := range rep.Input.Settings {
		from[s.Name] = s.From
	}
	for _, name := range specUnset {
		if f, ok := from[name]; !ok || f == resolve.SourceSpec {
			t.Errorf("%s: from %q, want a default (the variant left it out)", name, f)
		}
	}
}

// simulatedRules read, for every setting, the value the estimate runs
// with: the estimator's flat input as check reports it, and the API-server
// count the simulation spreads the front end over (slo.ApplyEngine). A
// setting without a rule fails: the report could list one value while the
// models use another (#27: check listed nothing and simulated one API
// server).
var simulatedRules = map[string]func(s *estimate.InputSummary, in *estimate.Input) string{
	"vllm_version":           func(s *estimate.InputSummary, _ *estimate.Input) string { return s.VLLMVersion },
	"weights":                func(s *estimate.InputSummary, _ *estimate.Input) string { return s.WeightsDType },
	"kv_cache_dtype":         func(s *estimate.InputSummary, _ *estimate.Input) string { return s.KVCacheDType },
	"gpu_memory_utilization": func(s *estimate.InputSummary, _ *estimate.Input) string { return fmt.Sprint(s.Utilization) },
	"max_model_len":          func(s *estimate.InputSummary, _ *estimate.Input) string { return strconv.Itoa(s.MaxModelLen) },
	"max_num_seqs":           func(s *estimate.InputSummary, _ *estimate.Input) string { return strconv.Itoa(s.MaxNumSeqs) },
	"max_num_batched_tokens": func(s *estimate.InputSummary, _ *estimate.Input) string { return strconv.Itoa(s.MaxNumBatchedTokens) },
	"block_size":             func(s *estimate.InputSummary, _ *estimate.Input) string { return strconv.Itoa(s.BlockSize) },
	"all2all_backend":        func(s *estimate.InputSummary, _ *estimate.Input) string { return s.All2AllBackend },
	"cuda_graphs":            func(s *estimate.InputSummary, _ *estimate.Input) string { return strconv.FormatBool(s.CUDAGraphs) },
	"api_server_count": func(_ *estimate.InputSummary, in *estimate.Input) string {
		var cfg sim.Config
		slo.ApplyEngine(in, perf.Efficiency{FrontendRequestS: 1}, &cfg)
		return strconv.Itoa(int(math.Round(1 / cfg.Frontend.RequestS)))
	},
	"decode_context_parallel_size": func(_ *estimate.InputSummary, in *estimate.Input) string { return strconv.Itoa(in.DCPSize()) },
	"mean_acceptance_length": func(s *estimate.InputSummary, _ *estimate.Input) string {
		if s.Speculative == nil {
			return "none"
		}
		return fmt.Sprint(s.Speculative.MeanAcceptanceLength)
	},
}

// assertSimulated: every setting check lists is the value its models use.
func assertSimulated(t *testing.T, rep *estimate.Report, in *estimate.Input) {
	t.Helper()
	for _, s := range rep.Input.Settings {
		rule, ok := simulatedRules[s.Name]
		if !ok {
			t.Errorf("setting %s: no rule reads the value the estimate uses (add one to simulatedRules)", s.Name)
			continue
		}
		if got, want := rule(&rep.Input, in), settingText(s.Value); !sameSetting(got, want) {
			t.Errorf("%s: check lists %s (%s: %s), its estimate uses %s", s.Name, want, s.From, s.Why, got)
		}
	}
}
