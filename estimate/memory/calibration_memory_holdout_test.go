package memory

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"gopkg.in/yaml.v3"
)

// updateMemoryHoldout regenerates docs/calibration-memory-holdout.md:
//
//	go test ./estimate/memory -run TestMemoryHoldout -update-memory-holdout
var updateMemoryHoldout = flag.Bool("update-memory-holdout", false, "rewrite docs/calibration-memory-holdout.md")

const (
	holdoutPath = "testdata/vllm-memory-logs-holdout.yaml"
	holdoutDoc  = "../../docs/calibration-memory-holdout.md"
)

// holdCase is a held-out case: the calibration schema plus the fields only
// held-out logs carry.
type holdCase struct {
	calCase     `yaml:",inline"`
	ModelConfig string `yaml:"model_config"`
}

// holdModels extends calModels with the held-out models in the catalog;
// models outside it come from the case's model_config file.
var holdModels = []struct{ match, id, quant string }{
	{"deepseek-coder-v2-lite", "deepseek-v2-lite", ""},
	{"llama-3.1-405b-instruct-fp8", "llama-3.1-405b", "fbgemm_fp8"},
}

// holdGPUs maps logged GPU names onto catalog entries (first match wins,
// so the longer names come first).
var holdGPUs = []struct{ key, id string }{
	{"H20-3e", "h20-141g"}, {"H100", "h100-sxm"}, {"A100", "a100-80g"}, {"L40S", "l40s"}, {"L4", "l4"},
	{"H200", "h200"}, {"B200", "b200"}, {"MI300X", "mi300x"},
}

func loadHoldout(t testing.TB) []holdCase {
	data, err := os.ReadFile(holdoutPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []holdCase `yaml:"cases"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", holdoutPath, err)
	}
	for i := range doc.Cases {
		doc.Cases[i].calCase.Measured.Error = strings.TrimSpace(doc.Cases[i].calCase.Measured.Error)
	}
	return doc.Cases
}

// holdModel resolves a held-out case's model: a vendored config, a
// held-out catalog mapping, or the calibration mapping.
func holdModel(c holdCase) (*catalog.Model, string, []string, error) {
	if strings.HasPrefix(c.ModelConfig, "none") {
		// Only the layout-dependent non-torch memory is compared; any dense
		// model stands in (non-torch depends on the layout, the GPU link and
		// whether the model is MoE).
		m, err := catalog.LookupModel("llama-3.1-8b")
		return m, "auto", []string{"model unavailable: non-torch memory only"}, err
	}
	if c.ModelConfig != "" {
		m, err := catalog.LoadHFConfig(c.ModelConfig)
		return m, "auto", []string{"model from " + c.ModelConfig}, err
	}
	name := strings.ToLower(strings.Fields(c.Model)[0])
	for _, e := range holdModels {
		if !strings.Contains(name, e.match) {
			continue
		}
		m, err := catalog.LookupModel(e.id)
		if err != nil {
			return nil, "", nil, err
		}
		var notes []string
		if e.quant != "" {
			m.Quant.Method = e.quant
			notes = append(notes, "fbgemm_fp8 (per-channel FP8) on every linear layer: the checkpoint's modules_to_not_convert is not logged")
		}
		return m, "auto", notes, nil
	}
	m, w, err := calModel(c.calCase)
	return m, w, nil, err
}

// holdGPU uses the logged device total when there is one, else the catalog's.
func holdGPU(c calCase) (*catalog.GPU, string) {
	var g *catalog.GPU
	for _, e := range holdGPUs {
		if strings.Contains(c.GPU, e.key) {
			g, _ = catalog.LookupGPU(e.id)
			break
		}
	}
	total, ok := num(c.GPUMemGiB)
	link := ""
	for _, p := range pcieOnly {
		if strings.Contains(c.GPU, p) {
			link = "pcie"
		}
	}
	switch {
	case g == nil && ok:
		return &catalog.GPU{ID: "custom", Name: c.GPU, MemoryMiB: total * 1024, IntraNodeKind: link}, ""
	case g == nil && link != "":
		// The device total is unknown: only what does not depend on it
		// (weights, non-torch memory) is compared.
		return &catalog.GPU{ID: "custom", Name: c.GPU, IntraNodeKind: link}, "GPU total unknown"
	case g == nil:
		return nil, "GPU unknown"
	case ok:
		cp := *g
		cp.MemoryMiB = total * 1024
		return &cp, ""
	}
	return g, "device total from the catalog (" + g.ID + ")"
}

// pcieOnly are GPUs outside the catalog that have no NVLink.
var pcieOnly = []string{"RTX 4090", "RTX 5090"}

// holdRow is one held-out case evaluated; it reuses calRow's fields and adds
// the end-to-end token prediction and the start-up check.
type holdRow struct {
	calRow
	hc            holdCase
	neededLog     float64
	neededPred    float64
	hasNeeded     bool
	tokPredE2E    int64
	weightsUnused bool
	ntLog, ntPred float64
	hasNT         bool
	onlyNonTorch  bool
}

func runHoldout(t testing.TB, cases []holdCase) []holdRow {
	var rows []holdRow
	for _, c := range cases {
		r := holdRow{calRow: calRow{c: c.calCase}, hc: c}
		r.evaluateHoldout(t)
		rows = append(rows, r)
	}
	return rows
}

func (r *holdRow) evaluateHoldout(t testing.TB) {
	m, weights, notes, err := holdModel(r.hc)
	if err != nil {
		t.Fatalf("%s: %v", r.c.ID, err)
	}
	g, gnote := holdGPU(r.c)
	if g == nil {
		// Weights do not depend on the device (but for Blackwell's MXFP4
		// padding); the budget does, so only the weights are compared.
		g = &catalog.GPU{ID: "unknown", Name: "unknown", MemoryMiB: 80 * 1024}
		r.weightsUnused = true
	}
	if g.MemoryMiB == 0 {
		g.MemoryMiB = 80 * 1024 // placeholder: the budget is not compared
		r.weightsUnused = true
	}
	in, assumed, err := calBuild(r.c, m, weights, g, gnote)
	if err != nil {
		t.Fatalf("%s: %v", r.c.ID, err)
	}
	r.onlyNonTorch = strings.HasPrefix(r.hc.ModelConfig, "none")
	r.assumed = append(notes, assumed...)
	r.wLog, r.hasW = num(r.c.Measured.Weights)
	r.hasW = r.hasW && !r.onlyNonTorch
	if bs, ok := num(r.c.Measured.BlockSize); ok {
		in.BlockSize = int(bs)
	}
	rep := Estimate(in)
	logged := rep.Stages[0]
	r.assumed = append(r.assumed, gapNotes(rep)...)
	r.ntLog, r.hasNT = num(r.c.Measured.NonTorch)
	r.ntPred = logged.NonTorchGiB
	if r.onlyNonTorch {
		return
	}
	r.wPred, r.availPred = logged.WeightsGiB, logged.AvailableKVGiB
	r.bpt = logged.KV.BytesPerToken
	r.tokPredE2E = rep.KVTokensPerRank
	r.availLog, r.hasAvail = num(r.c.Measured.Available)
	if r.weightsUnused {
		r.hasAvail = false
	}
	tok, okTok := num(r.c.Measured.Tokens)
	r.hasTok = okTok && r.hasAvail
	if r.hasTok {
		r.fromLoggedPool(tok, logged.KV, in)
	}
	// "X GiB KV cache is needed" for one max_model_len sequence: a check of
	// bytes per token (and of how a sequence's blocks are counted).
	if v, ok := num(r.c.Measured.Needed); ok {
		r.neededLog, r.hasNeeded = v, true
		r.neededPred = float64(logged.KV.SequenceBytes(in.MaxModelLen, in.BlockSize)) / GiB
	}
	r.failedLog = r.c.Measured.Error != "" || (r.hasAvail && r.availLog <= 0)
	r.failedPred = !rep.Capacity.OneSequenceFits
}

// TestMemoryHoldout runs the estimator on the held-out logs and reports how
// it does. Misses are reported, not failed: the set measures the estimator,
// it does not tune it. It fails only on a stale document (see
// TestHoldoutMarkdownIsCurrent) or a case the estimator cannot evaluate.
func TestMemoryHoldout(t *testing.T) {
	rows := runHoldout(t, loadHoldout(t))
	md := holdoutMarkdown(rows)
	t.Log("\n" + md)
	if *updateMemoryHoldout {
		if err := os.WriteFile(holdoutDoc, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHoldoutMarkdownIsCurrent fails when the published held-out table
// differs from what the estimator produces now.
func TestHoldoutMarkdownIsCurrent(t *testing.T) {
	want := holdoutMarkdown(runHoldout(t, loadHoldout(t)))
	got, err := os.ReadFile(holdoutDoc)
	if err != nil || !bytes.Equal(got, []byte(want)) {
		t.Errorf("docs/calibration-memory-holdout.md is stale; run: go test ./estimate/memory -run TestMemoryHoldout -update-memory-holdout")
	}
}

// TestHoldoutCasesAreSourced keeps the held-out file honest: every case
// names its source and at least one logged number.
func TestHoldoutCasesAreSourced(t *testing.T) {
	data, err := os.ReadFile(holdoutPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			ID     string `yaml:"id"`
			Source struct {
				Repo string `yaml:"repo"`
				Ref  string `yaml:"ref"`
				URL  string `yaml:"url"`
			} `yaml:"source"`
			Measured map[string]string `yaml:"measured"`
		} `yaml:"cases"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 8 {
		t.Errorf("%d held-out cases, want at least 8", len(doc.Cases))
	}
	seen := map[string]bool{}
	for _, c := range doc.Cases {
		if seen[c.ID] {
			t.Errorf("duplicate id %s", c.ID)
		}
		seen[c.ID] = true
		if c.Source.Repo == "" || c.Source.Ref == "" || !strings.HasPrefix(c.Source.URL, "https://github.com/") {
			t.Errorf("%s: source incomplete: %+v", c.ID, c.Source)
		}
		n := 0
		for _, k := range []string{"weights_gib_per_gpu", "available_kv_gib_per_gpu", "kv_cache_tokens"} {
			if _, ok := num(c.Measured[k]); ok {
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: no logged weights, available memory or tokens", c.ID)
		}
	}
}

// holdExplanations says, per case, what the comparison shows and, for a
// miss, what it is due to when the log allows an explanation, or that it
// does not. Figures quoted are computed from the logged values.
var holdExplanations = map[string]string{
	"qwen3coder480b-fp8-recipes12-h20-dp8ep-u090": "First DP>1 + expert-parallel case (DP8, EP8, one node): the KV a max_model_len sequence needs " +
		"matches vLLM's 62.00 GiB exactly (full KV heads per DP rank), and the available memory is within 3% with the fused-MoE " +
		"workspace sized for the tokens all-gathered from 8 DP ranks (all2all backend \"naive\" for 0.10.1). The device total is " +
		"inferred (H20-3e) from the two utilizations, and the weights are not logged, so weights and activation cannot be separated.",
	"qwen3coder480b-fp8-recipes12-h20-dp8ep-u095": "Same run at utilization 0.95: the 0.05 × device total step (6.99 GiB) is " +
		"reproduced, so the error is the same absolute 1.4 GiB as at 0.90.",
	"dsv2lite-pr20665-l4-tp2pp2": "First PCIe multi-GPU case. Before the change below it predicted 10.11 GiB (−16.7%): " +
		"the 1.8 GiB collectives constant (NVLS + custom all-reduce, read off NVLink H100/H20 runs) does not exist on L4s, whose " +
		"ranks communicate over PCIe with NCCL ring buffers only. With PCIeCollectivesGiB the first stage is −2.7% and the last " +
		"stage (11.33 GiB logged, rank 2) 11.60 predicted (+2.4%); the pool is the first stage's, as vLLM's 807,792 tokens show. " +
		"The L4 is inferred from the fused-MoE config file name in the log. The BF16 kv_b_proj keeps no W_UK/W_UV copies " +
		"(−2.7% → −2.4%), and an L4 (compute capability 8.9) runs Triton MLA with block size 16, not FlashMLA's 64.",
	"qwen3-06b-pr24577-a100-bf16": "A100 single GPU, small model: weights, bytes per token, tokens, concurrency and available " +
		"memory all within target.",
	"gptoss120b-27508-h100-u095-mnbt1024": "Not explained by the log. Budget 0.95 × 79.11 = 75.15 GiB; the logged 1.71 GiB " +
		"leaves 73.44 GiB for weights + activation + non-torch, against 65.84 + 2.97 + 0.26 = 69.07 predicted: 4.4 GiB unaccounted " +
		"(5.8 GiB if this release stored the experts as 0.14.1 does). The calibration's gptoss120b-23278 (0.10.1) shows the same " +
		"pattern (−2.14 logged, +1.54 predicted: 3.7 GiB). In the same thread a later run's OOM message reports 78.96 GiB in use of " +
		"which PyTorch reserved 69.16 GiB — about 9.8 GiB outside PyTorch's allocator, far above the 0.26 GiB constant. What holds " +
		"it (MXFP4 MoE backend or attention-sink kernel workspaces are candidates) is not in the log, so no constant is fitted; " +
		"vlaunch's figure for gpt-oss-120b on one 80 GB GPU is optimistic by about 4 GiB. It is a known gap (estimate/memory " +
		"gaps.go): for gpt-oss MXFP4 on Hopper-class GPUs with vLLM ≤ 0.11 the KV band reaches 4.4 GiB below the prediction, " +
		"and EST108 warns when the deployment fits only above it.",
	"gptoss120b-33155-h100-v0141": "Within 3% (+2.3%) but version-specific: 0.14.1 logs \"Using Triton backend\" and 1.59 GiB " +
		"less than 0.10.1's Marlin for the same checkpoint. vLLM's create_weights pads nothing for the Triton backend (intermediate " +
		"to 64, hidden unpadded), which would predict 60.7 GiB (−5.7%) and moves the calibration's gptoss-20b-llmd-h100-tp2 " +
		"(0.19.0) from +0.7% to −7.1%; the Triton path's swizzled layout evidently pads too, by an amount not in the logs. " +
		"Marlin's padding is kept as the closer figure.",
	"llama31-405b-fp8-6746-h100-tp8": "Explained, but by the checkpoint, not the model: the log does not show the checkpoint's " +
		"quantization_config, and vlaunch's catalog has no FP8 405B entry, so every linear layer was taken as FP8. Meta's FP8 " +
		"release quantizes the FFN only; with the attention projections kept in BF16 (modules_to_not_convert, which vlaunch " +
		"honours when a config lists them) the prediction is 56.12 GiB (−2.8%), and 56.73 GiB (−1.8%) if the first and last " +
		"layers' FFN stay BF16 too. This case found a real gap: a config with quant_method fbgemm_fp8 (Meta's FP8 releases) was read " +
		"as a BF16 checkpoint; it is now per-channel FP8 with its modules_to_not_convert honoured, so a spec whose model.config " +
		"points at the checkpoint's config.json gets the BF16 attention from it.",
	"r1distillqwen14b-13061-rtx4090-tp2": "Non-torch memory only (model config not available): a TP=2 engine on two RTX 4090s " +
		"(no NVLink) logged 0.25 GiB of non-torch memory in all. Before the PCIe change vlaunch predicted 2.06 GiB (0.26 + 1.8); " +
		"now 0.36 GiB. This independent log confirms that the 1.8 GiB belongs to NVLink systems; 0.1 GiB for PCIe NCCL buffers " +
		"is, if anything, high for this V0 run.",
	"dscoderv2lite-15607-tp4": "Weights only (GPU not logged): MLA, 64 routed + 2 shared experts at TP4 within 0.1%.",
}

func holdoutMarkdown(rows []holdRow) string {
	var b strings.Builder
	b.WriteString(`# Memory held-out check: vlaunch vs. vLLM start-up logs it was not fitted to

Generated by ` + "`go test ./estimate/memory -run TestMemoryHoldout -update-memory-holdout`" + ` from
` + "`estimate/memory/testdata/vllm-memory-logs-holdout.yaml`" + ` (sources cited per case there).
Do not edit by hand; ` + "`TestHoldoutMarkdownIsCurrent`" + ` fails when it is stale.

These logs were collected after the estimator's constants (0.26 GiB non-torch, 1.8 GiB
collectives, 15 B per sampled logit, the activation formulas) were read off the calibration set
(` + "`docs/calibration-memory.md`" + `). The targets are the calibration's — weights within 3%, KV tokens
from the logged available memory within 1%, available KV memory within 10% — but a miss here does
not fail the build: it is reported, and explained below where the log allows. Inputs are the
logged settings only; what had to be assumed is listed per row.

| case | vLLM | GPU | layout | weights GiB log / pred (err) | KV B/token pred (log-implied) | KV tokens log / from logged mem (err) | max concurrency log / from logged mem | available GiB log / pred (err) | notes |
|---|---|---|---|---|---|---|---|---|---|
`)
	for _, r := range rows {
		b.WriteString(holdRowMarkdown(r))
	}
	b.WriteString(holdSummary(rows))
	b.WriteString("\n## Per case\n\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "- `%s`: %s\n", r.c.ID, holdVerdict(r))
	}
	b.WriteString(holdoutModelChanges)
	return b.String()
}

func holdRowMarkdown(r holdRow) string {
	if r.onlyNonTorch {
		return fmt.Sprintf("| `%s` | %s | %s | TP%d PP%d DP%d | – | – | – | – | – | %s; non-torch %.2f GiB logged / %.2f predicted |\n",
			r.c.ID, short(r.c.Version), short(r.c.GPU), r.c.TP, max(r.c.PP, 1), max(r.c.DP, 1), strings.Join(r.assumed, "; "), r.ntLog, r.ntPred)
	}
	row := calRowMarkdown(r.calRow)
	// calRowMarkdown: | id | version | layout | ... ; insert the GPU after the version.
	cells := strings.SplitN(row, " | ", 3)
	gpu := short(r.c.GPU)
	if gpu == "" || gpu == "unknown" {
		gpu = "unknown"
	}
	row = cells[0] + " | " + cells[1] + " | " + gpu + " | " + cells[2]
	if r.hasNeeded {
		row = strings.TrimSuffix(row, " |\n") + fmt.Sprintf("; KV for one max_model_len sequence %.2f GiB logged / %.2f predicted |\n", r.neededLog, r.neededPred)
	}
	if r.hasNT {
		row = strings.TrimSuffix(row, " |\n") + fmt.Sprintf("; non-torch %.2f GiB logged / %.2f predicted |\n", r.ntLog, r.ntPred)
	}
	if r.weightsUnused && !r.onlyNonTorch {
		row = strings.TrimSuffix(row, " |\n") + "; weights only (GPU total unknown) |\n"
	}
	return row
}

// holdMiss lists the metrics of a row outside their targets.
func holdMiss(r holdRow) []string {
	var miss []string
	if r.hasW && math.Abs(relErr(r.wPred, r.wLog)) > targetWeights {
		miss = append(miss, fmt.Sprintf("weights %+.1f%%", 100*relErr(r.wPred, r.wLog)))
	}
	if r.hasTok && math.Abs(relErr(float64(r.tokFromLog), float64(r.tokLog))) > targetKVTokens {
		miss = append(miss, fmt.Sprintf("KV tokens %+.2f%%", 100*relErr(float64(r.tokFromLog), float64(r.tokLog))))
	}
	if r.hasNeeded && math.Abs(relErr(r.neededPred, r.neededLog)) > targetKVTokens {
		miss = append(miss, fmt.Sprintf("KV per sequence %+.2f%%", 100*relErr(r.neededPred, r.neededLog)))
	}
	if r.hasAvail && !r.failedLog && math.Abs(relErr(r.availPred, r.availLog)) > targetAvailable {
		miss = append(miss, fmt.Sprintf("available %+.1f%%", 100*relErr(r.availPred, r.availLog)))
	}
	if r.hasAvail && r.failedLog && r.availLog > 0 && math.Abs(relErr(r.availPred, r.availLog)) > targetAvailable {
		miss = append(miss, fmt.Sprintf("available %+.1f%% (failed start-up)", 100*relErr(r.availPred, r.availLog)))
	}
	return miss
}

func holdVerdict(r holdRow) string {
	miss := holdMiss(r)
	s := "within every target it has data for."
	if len(miss) > 0 {
		s = "MISS: " + strings.Join(miss, ", ") + "."
	}
	if why := holdExplanations[r.c.ID]; why != "" {
		s += " " + why
	}
	return s
}

func holdSummary(rows []holdRow) string {
	var nw, okw, nt, okt, na, oka, nn, okn, nnt int
	var nts []string
	for _, r := range rows {
		if r.hasNT {
			nnt++
			nts = append(nts, fmt.Sprintf("%.2f / %.2f", r.ntLog, r.ntPred))
		}
		if r.hasW {
			nw++
			okw += calB2I(math.Abs(relErr(r.wPred, r.wLog)) <= targetWeights)
		}
		if r.hasTok {
			nt++
			okt += calB2I(math.Abs(relErr(float64(r.tokFromLog), float64(r.tokLog))) <= targetKVTokens)
		}
		if r.hasNeeded {
			nn++
			okn += calB2I(math.Abs(relErr(r.neededPred, r.neededLog)) <= targetKVTokens)
		}
		if r.hasAvail && r.availLog > 0 {
			na++
			oka += calB2I(math.Abs(relErr(r.availPred, r.availLog)) <= targetAvailable)
		}
	}
	return fmt.Sprintf("\n## Summary\n\n- weights within 3%%: %d of %d cases\n- KV tokens from logged memory within 1%%: %d of %d cases\n- KV for one max_model_len sequence within 1%%: %d of %d cases\n- available KV memory within 10%%: %d of %d cases (failed start-ups with a positive logged figure included)\n- non-torch memory logged / predicted (GiB, no target): %d case(s): %s\n",
		okw, nw, okt, nt, okn, nn, oka, na, nnt, strings.Join(nts, ", "))
}

// holdoutModelChanges records what the held-out set changed in the model.
const holdoutModelChanges = `
## Model changes prompted by this set

- **Collectives memory on PCIe GPUs** (` + "`PCIeCollectivesGiB`" + ` in ` + "`estimate/memory_budget.go`" + `):
  the 1.8 GiB a GPU gains on joining NCCL groups was read off NVLink/NVSwitch systems, where it is NCCL's
  NVLS buffers and vLLM's custom all-reduce. GPUs joined by PCIe only (catalog ` + "`intra_node_kind: pcie`" + `)
  have neither; they now get 0.1 GiB, derived from NCCL's default buffer sizes (not fitted).
  ` + "`dsv2lite-pr20665-l4-tp2pp2`" + `: available memory −16.7% → −2.7%;
  ` + "`r1distillqwen14b-13061-rtx4090-tp2`" + ` (TP2 on RTX 4090s): non-torch 2.06 → 0.36 GiB against 0.25 logged.
  The calibration table is unchanged (every multi-GPU calibration case is NVLink).

- **fbgemm_fp8 checkpoints** (Meta's Llama 3.1 FP8 releases): ` + "`quant_method: fbgemm_fp8`" + ` was not recognised,
  so such a config.json was sized as BF16 (twice the FP8 bytes). It is now per-channel FP8 (1 B + one fp32
  scale per output channel, as vLLM's fbgemm_fp8 stores it), with modules_to_not_convert honoured
  (catalog CheckpointDType, estimate fp8Rule; TestFBGEMMFP8Checkpoint).

- **W_UK/W_UV copies only for a quantized kv_b_proj** (issue 10 item 6): vLLM's MLA
  process_weights_after_loading de-quantizes a quantized kv_b_proj into new 16-bit tensors but takes
  W_UK/W_UV as views of an unquantized one (V0 and V1 ` + "`mla/common.py`" + `). BF16 MLA checkpoints lose the
  copies: ` + "`dscoderv2lite-15607-tp4`" + ` weights +0.1% → −0.3%, ` + "`dsv2lite-pr20665-l4-tp2pp2`" + ` available −2.7% → −2.4%.
- **MLA block size by backend** (` + "`vllm.Release.MLABackend`" + `, ` + "`vllm.MLABlockSize`" + `): FlashMLA's 64 only where
  the release picks FlashMLA (Hopper, 0.8.0–0.11.0, or an FP8 cache later); FLASH_ATTN_MLA (Hopper from 0.11.1)
  and Triton MLA (Ampere/Ada, L4) keep 16; CUTLASS_MLA 128 and FlashInfer MLA 64 on Blackwell.

Examined and not changed:

- MXFP4 expert padding by backend (0.14.1 uses the Triton backend on Hopper): vLLM's unpadded Triton
  create_weights layout made both a held-out and a calibration case worse (see the gpt-oss rows), so the
  Marlin padding stays.
- gpt-oss-120b on one 80 GB GPU: about 4 GiB of non-torch memory in two independent logs that the log
  lines do not explain; not fitted, but a known gap now (` + "`estimate/memory/gaps.go`" + `): on vLLM ≤ 0.11 the
  predicted KV memory carries a band down to 4.4 GiB less, and EST108 warns when the verdict depends on it.

Before these changes, this set scored: weights 3 of 4, KV tokens 2 of 2, KV per sequence 2 of 2,
available memory 3 of 5 within target; non-torch 0.25 logged / 2.06 predicted.
`
