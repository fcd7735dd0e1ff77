package plan

import (
	"bytes"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const applySpec = `# head comment stays
apiVersion: vlaunch/v1
kind: Deployment
model:
  name: deepseek-v3
  # why BF16
  weights: bf16
parallelism: {tensor: 1, pipeline: 1, data: 32, expert: true}   # the analysis' layout
vllm:
  version: "0.11.0"
  max_num_seqs: 256     # tuned by hand
`

func TestApply(t *testing.T) {
	own := Settings{TP: 1, PP: 1, DP: 32, EP: true, Weights: "bf16", KVCacheDType: "auto", All2All: "auto", MaxNumSeqs: 256}
	s := own
	s.TP, s.DP, s.Weights, s.KVCacheDType, s.DBO, s.All2All, s.MaxNumSeqs, s.MaxNumBatchedTokens = 8, 4, "auto", "fp8", true, "deepep_low_latency", 0, 4096
	out, err := Apply([]byte(applySpec), own, s)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{
		"# head comment stays\n",
		"  # why BF16\n  weights: auto\n",
		"parallelism: {tensor: 8, pipeline: 1, data: 4, expert: true} # the analysis' layout\n",
		"  kv_cache_dtype: fp8\n", "  all2all_backend: deepep_low_latency\n", "  enable_dbo: true\n",
		"  max_num_batched_tokens: 4096\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "max_num_seqs") {
		t.Errorf("max_num_seqs back to the default should be dropped:\n%s", got)
	}
	unchanged, err := Apply([]byte(applySpec), own, own)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(unchanged), "\n") != strings.Count(applySpec, "\n") || !strings.Contains(string(unchanged), "weights: bf16") {
		t.Errorf("applying the spec's own settings changed it:\n%s", unchanged)
	}
}

// TestApplyAutoAndMissing: `parallelism: auto` becomes a mapping, a missing
// vllm section is created, and an aliased mapping is copied, not edited.
func TestApplyAutoAndMissing(t *testing.T) {
	src := "base: &b {version: \"0.11.0\"}\nparallelism: auto\nvllm: *b\n"
	own := Settings{TP: 8, PP: 1, DP: 4, Weights: "auto", KVCacheDType: "auto", All2All: "auto"}
	s := own
	s.KVCacheDType = "fp8"
	out, err := Apply([]byte(src), own, s)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Base        map[string]string `yaml:"base"`
		Parallelism map[string]any    `yaml:"parallelism"`
		VLLM        map[string]string `yaml:"vllm"`
	}
	if err := yaml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Parallelism["tensor"] != 8 || doc.VLLM["kv_cache_dtype"] != "fp8" || doc.VLLM["version"] != "0.11.0" || doc.Base["kv_cache_dtype"] != "" {
		t.Errorf("got %+v from\n%s", doc, out)
	}
	if _, err := Apply([]byte("model: {}\n"), own, s); err != nil {
		t.Errorf("a spec without vllm: %v", err)
	}
	for _, bad := range []string{"", "- a list\n", "just a string\n"} {
		if _, err := Apply([]byte(bad), own, s); err == nil {
			t.Errorf("Apply(%q) accepted a document that is not a mapping", bad)
		}
	}
}

// FuzzApply: nothing panics, and a document that decodes (as every
// validated spec does) is refused or comes back as YAML that decodes.
func FuzzApply(f *testing.F) {
	f.Add(applySpec)
	f.Add("parallelism: auto\n")
	f.Add("a: &x {b: 1}\nvllm: *x\nmodel: [1]\n")
	f.Add("vllm: !!str x\nparallelism: {tensor: *y}\n")
	own := Settings{TP: 1, PP: 1, DP: 1, Weights: "auto", KVCacheDType: "auto", All2All: "auto"}
	f.Add("vllm: {speculative: {method: mtp, num_speculative_tokens: 3, mean_acceptance_length: 3.5}}\n")
	f.Add("vllm: {speculative: &s [1]}\nx: *s\n")
	s := Settings{TP: 2, PP: 1, DP: 4, EP: true, Weights: "fp8", KVCacheDType: "fp8", All2All: "naive", DBO: true, MaxNumSeqs: 8, MaxNumBatchedTokens: 1024}
	ownSpec := own
	ownSpec.Speculative, ownSpec.SpecTokens = "mtp", 3
	on, off := s, s
	on.Speculative, on.SpecTokens = "mtp", 1
	off.Speculative = specOff
	f.Fuzz(func(t *testing.T, src string) {
		var v any
		if yaml.Unmarshal([]byte(src), &v) != nil {
			return
		}
		var doc yaml.Node
		cached := yaml.Unmarshal([]byte(src), &doc) == nil && !hasAlias(&doc)
		for _, c := range []struct{ own, s Settings }{{own, s}, {ownSpec, on}, {ownSpec, off}} {
			out, err := Apply([]byte(src), c.own, c.s)
			if cached { // the verifier's path: a copy of the parsed spec, edited, is Apply's output
				got, cerr := applyDoc(cloneNode(&doc), c.own, c.s, new([]string))
				if (err == nil) != (cerr == nil) || (err == nil && !bytes.Equal(got, out)) {
					t.Fatalf("Apply %v, applyDoc on a copy %v:\n%s\n---\n%s", err, cerr, out, got)
				}
			}
			if err != nil {
				continue
			}
			if err := yaml.Unmarshal(out, &v); err != nil {
				t.Fatalf("output does not parse: %v\n%s", err, out)
			}
		}
	})
}

const applySpecDecode = `vllm:
  version: "0.22.1"
  speculative:   # MTP, measured
    method: mtp
    num_speculative_tokens: 3
    mean_acceptance_length: 2.6   # from our logs
`

// TestApplySpeculative: a shorter draft is written with the acceptance
// capped as the candidate was predicted (2.6 cannot be reached with one
// draft); a draft the acceptance allows keeps it; off drops the section.
func TestApplySpeculative(t *testing.T) {
	own := Settings{TP: 1, PP: 1, DP: 1, Weights: "auto", KVCacheDType: "auto", All2All: "auto", Speculative: "mtp", SpecTokens: 3}
	for _, tc := range []struct {
		tokens   int
		method   string
		want     []string
		dontWant []string
	}{
		{1, "mtp", []string{"    num_speculative_tokens: 1\n", "    mean_acceptance_length: 2 # from our logs\n", "  speculative: # MTP, measured\n"}, nil},
		{2, "mtp", []string{"    num_speculative_tokens: 2\n", "    mean_acceptance_length: 2.6 # from our logs\n"}, nil},
		{0, specOff, []string{"  version: \"0.22.1\"\n"}, []string{"speculative", "method"}},
	} {
		s := own
		s.Speculative, s.SpecTokens = tc.method, tc.tokens
		out, err := Apply([]byte(applySpecDecode), own, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s %d: missing %q in\n%s", tc.method, tc.tokens, w, out)
			}
		}
		for _, w := range tc.dontWant {
			if strings.Contains(string(out), w) {
				t.Errorf("%s %d: %q left in\n%s", tc.method, tc.tokens, w, out)
			}
		}
	}
}

// TestApplyReplicas: a replica candidate writes parallelism.replicas; one
// replica drops the key again.
func TestApplyReplicas(t *testing.T) {
	own := Settings{TP: 1, PP: 1, DP: 32, EP: true, Weights: "bf16", KVCacheDType: "auto", All2All: "auto", MaxNumSeqs: 256}
	s := own
	s.DP, s.Replicas = 8, 4
	out, err := Apply([]byte(applySpec), own, s)
	if err != nil {
		t.Fatal(err)
	}
	if want := "parallelism: {tensor: 1, pipeline: 1, data: 8, expert: true, replicas: 4} # the analysis' layout\n"; !strings.Contains(string(out), want) {
		t.Errorf("missing %q in\n%s", want, out)
	}
	back, err := Apply(out, s, own)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(back), "replicas") || !strings.Contains(string(back), "data: 32") {
		t.Errorf("back to one replica:\n%s", back)
	}
}
