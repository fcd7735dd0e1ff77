package preflight

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
)

// sizeTolerance bounds how far the safetensors total may sit from the
// expected checkpoint bytes. The expectation ignores quantization scales,
// biases the count misses and per-file headers (together well under 5% on
// the catalog's models); 10% still catches a checkpoint in another dtype
// (2× for BF16 vs FP8) and a download missing a tenth of its shards.
const sizeTolerance = 0.10

func checkModelPath(_ context.Context, e *env) Result {
	loc := e.modelLocation()
	const want = "a directory with config.json and *.safetensors"
	switch {
	case loc.Dir == "" && loc.Repo != "":
		return warn(loc.describe(), want,
			fmt.Sprintf("vLLM will download it at first start on every node; download it first (`huggingface-cli download %s`) or set model.path to a local copy", loc.Repo))
	case loc.Dir == "":
		return fail(loc.describe(), want, "set model.path to where the weights live on every host")
	case !e.exists(loc.Dir):
		return fail(loc.Dir+" does not exist", want, "copy the weights to "+loc.Dir+" on this host (same path on every node), or fix model.path")
	case !e.exists(path.Join(loc.Dir, "config.json")):
		return fail(loc.Dir+" has no config.json", want, "model.path must point at the checkpoint directory itself")
	}
	return pass(loc.describe(), want)
}

// modelDir returns the local directory or a skip saying why there is none.
func (e *env) modelDir() (string, *Result) {
	loc := e.modelLocation()
	if loc.Dir == "" || !e.exists(path.Join(loc.Dir, "config.json")) {
		r := skip("no local checkpoint (see model.path)")
		return "", &r
	}
	return loc.Dir, nil
}

func checkModelConfig(_ context.Context, e *env) Result {
	dir, r := e.modelDir()
	if r != nil {
		return *r
	}
	want := e.checkpointModel()
	data, err := e.readFile(path.Join(dir, "config.json"))
	if err != nil {
		return fail("cannot read config.json: "+err.Error(), modelFacts(want), "")
	}
	var hfq []byte // a ModelOpt checkpoint's quantization, read as vLLM does
	if q := path.Join(dir, catalog.HFQuantConfigFile); e.exists(q) {
		if hfq, err = e.readFile(q); err != nil {
			return fail("cannot read "+catalog.HFQuantConfigFile+": "+err.Error(), modelFacts(want), "")
		}
	}
	got, err := catalog.ParseHFConfigWithQuant(data, hfq)
	if err != nil {
		return fail("config.json: "+err.Error(), modelFacts(want), "the checkpoint's config.json is damaged; download it again")
	}
	if diffs := modelDiffs(got, want); len(diffs) > 0 {
		return fail(strings.Join(diffs, "; "), modelFacts(want),
			"model.path holds a different model or dtype than the spec's model and model.weights: fix model.path, model.name or model.weights")
	}
	return pass(modelFacts(got), modelFacts(want))
}

// modelDiffs lists the facts where the checkpoint differs from the spec.
func modelDiffs(got, want *catalog.Model) []string {
	var d []string
	add := func(what string, g, w interface{}) {
		if fmt.Sprint(g) != fmt.Sprint(w) {
			d = append(d, fmt.Sprintf("%s %v, spec's model has %v", what, orNone(g), orNone(w)))
		}
	}
	add("architecture", got.Architecture, want.Architecture)
	add("layers", got.NumLayers, want.NumLayers)
	add("hidden size", got.HiddenSize, want.HiddenSize)
	add("experts", got.NumExperts, want.NumExperts)
	add("quantization", got.Quant.Method, want.Quant.Method)
	return d
}

func modelFacts(m *catalog.Model) string {
	q := m.Quant.Method
	if q == "" {
		q = "none (" + m.TorchDType + ")"
	}
	return fmt.Sprintf("%s, %d layers, hidden %d, %d experts, quantization %s",
		m.Architecture, m.NumLayers, m.HiddenSize, m.NumExperts, q)
}

func orNone(v interface{}) interface{} {
	if s, ok := v.(string); ok && s == "" {
		return "none"
	}
	return v
}

func checkModelSize(_ context.Context, e *env) Result {
	dir, r := e.modelDir()
	if r != nil {
		return *r
	}
	exp, source := e.checkpointBytes()
	want := fmt.Sprintf("%s of weights (±%.0f%%, from %s)", gib(exp), sizeTolerance*100, source)
	s, err := e.safetensors(dir)
	if err != nil {
		return fail("cannot read the checkpoint in "+dir+": "+err.Error(), want, "")
	}
	if s.Files == 0 && !s.Index {
		return fail("no weights found (no *.safetensors, no model.safetensors.index.json) in "+dir, want,
			"download the checkpoint's weights into "+dir+" (`huggingface-cli download REPO --local-dir "+dir+"`), or point model.path at the directory that holds them")
	}
	found := fmt.Sprintf("%d safetensors files, %s", s.Files, gib(s.Bytes))
	if len(s.Missing) > 0 {
		return fail(found+"; "+s.missingText(), want+", every shard",
			"the download is incomplete: resume it (`huggingface-cli download` skips finished files)")
	}
	if s.IndexTotal > 0 && s.Bytes < s.IndexTotal {
		return fail(found+fmt.Sprintf("; index says %s", gib(s.IndexTotal)), want, "some shards are truncated: download them again")
	}
	return sizeVerdict(found, want, s.Bytes, exp)
}

func sizeVerdict(found, want string, got, exp float64) Result {
	rel := (got - exp) / exp
	switch {
	case rel < -sizeTolerance:
		return fail(found, want, "the checkpoint is smaller than the model needs: an incomplete download, or a smaller model/quantization than the spec says")
	case rel > sizeTolerance:
		return warn(found, want, "the checkpoint is larger than expected: likely a wider dtype than the spec assumes (e.g. BF16 where FP8 was planned); memory estimates may be off")
	}
	return pass(found, want)
}

func shortList(ss []string, n int) string {
	if len(ss) <= n {
		return strings.Join(ss, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ss[:n], ", "), len(ss)-n)
}
