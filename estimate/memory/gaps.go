package memory

import (
	"fmt"
	"math"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// Gap is memory vLLM was seen to use, in start-up logs, beyond what the
// model accounts for, without the logs saying what holds it. It is not
// subtracted from the prediction (nothing in the logs says how it scales);
// it widens the band of the available KV memory downwards instead, and
// the report says when the deployment would not fit at the band's low end.
type Gap struct {
	What   string  `json:"what"`
	GiB    float64 `json:"gib"`
	Source string  `json:"source"`
}

// gptOSSGapGiB is the larger of the two shortfalls two independent
// gpt-oss-120b start-ups on one H100 show (docs/calibration-memory.md):
// 3.7 GiB on vLLM ≈0.10.1 (issue #23278, Marlin MXFP4 path) and 4.4 GiB on
// ≈0.11.0 (issue #27508). An OOM later in the same #27508 run reports
// 78.96 GiB in use of which PyTorch reserved 69.16 GiB, so the memory sits
// outside PyTorch's allocator; which kernel holds it (MXFP4 MoE or
// attention-sink workspaces are candidates) the logs do not say.
const gptOSSGapGiB = 4.4

// gptOSSGapUntil is the first release the gap is not assumed for: both
// logs are from 0.10.1 and 0.11.0, and issue #33155 reports the same model
// fitting one H100 on 0.11.2, so later releases are left without it.
var gptOSSGapUntil, _ = vllm.ParseVersion("0.12.0")

// knownGaps lists the gaps that apply to the deployment.
func knownGaps(in *input.Input) []Gap {
	var out []Gap
	m := in.Model
	blackwell := in.GPU.Blackwell()
	if m.ModelType == "gpt_oss" && in.WeightsDType == "mxfp4" && !blackwell && !in.Release().Version.AtLeast(gptOSSGapUntil) {
		out = append(out, Gap{What: "gpt-oss MXFP4 on Hopper-class GPUs with vLLM ≤ 0.11: memory outside PyTorch not explained by the logs",
			GiB: gptOSSGapGiB, Source: "vLLM issues #23278 (≈0.10.1) and #27508 (≈0.11.0), gpt-oss-120b on one H100: 3.7 and 4.4 GiB more non-KV memory than predicted"})
	}
	return out
}

// gapGiB sums the gaps.
func gapGiB(gaps []Gap) float64 {
	var s float64
	for _, g := range gaps {
		s += g.GiB
	}
	return s
}

// lowEnd is the binding stage's KV memory and capacity at the band's low
// end: the known gaps taken out of the available memory.
func lowEnd(in *input.Input, b StageMemory, gap float64) (availGiB float64, maxSeqs int) {
	availGiB = b.AvailableKVGiB - gap
	if availGiB <= 0 || b.KV.BytesPerToken <= 0 {
		return availGiB, 0
	}
	blockBytes := float64(b.KV.BytesPerToken) * float64(max(in.BlockSize, 1))
	pool := math.Floor(availGiB*GiB/blockBytes) * blockBytes
	session, _ := in.SessionTokens()
	run := b.KV.RunCost(in.BlockSize)
	if seq := run.Bytes(session); seq > 0 {
		maxSeqs = int(max(pool-float64(run.Reserve), 0) / float64(seq))
	}
	return availGiB, maxSeqs
}

// gapNote explains the widened band.
func gapNote(m *Report) (Note, bool) {
	if len(m.Gaps) == 0 {
		return Note{}, false
	}
	text := ""
	for _, g := range m.Gaps {
		text += fmt.Sprintf("%s (%.1f GiB; %s). ", g.What, g.GiB, g.Source)
	}
	text += fmt.Sprintf("The KV memory is predicted at %.2f GiB per GPU, with a band down to %.2f GiB (%d sessions per rank instead of %d); the gap is not fitted, so the prediction itself is unchanged.",
		m.PerGPU.KVCacheGiB, m.PerGPU.KVCacheLowGiB, m.Capacity.MaxSeqsPerRankLow, m.Capacity.MaxSeqsPerRank)
	return Note{"Known gap", text}, true
}
