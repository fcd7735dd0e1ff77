package memory

import (
	"fmt"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// termFIARInGraphBudget names the FlashInfer all-reduce + RMSNorm
// workspace where vLLM subtracts it a second time, inside its CUDA-graph
// estimate (short enough for check's 28-character term column).
const termFIARInGraphBudget = "FlashInfer AR ws (graphs)"

// fiARNormTerms charges the FlashInfer all-reduce + RMSNorm workspace that
// MiniMax-M3's decoder layers make (vllm.Release.EagerFIARNormWorkspace)
// where vLLM's profile counts it beyond the memory outside PyTorch:
//
//   - vLLM always counts the workspace once as memory outside PyTorch when
//     it is made inside the profile (in the profile run, or in the CUDA-graph
//     profiling that memory_profiling measures after). vlaunch's "NCCL +
//     custom all-reduce" term already holds one: it was read off v0.19 TP 2
//     H100 logs (llm-d-planner accuracy/results/v0.19.0) whose compile pass
//     made the same workspace in the profile ("Initialized FlashInfer All
//     Reduce workspace: backend=trtllm, world_size=2, … max_token_num=4096,
//     hidden_dim=8192", non-torch 2.09 GiB), so it is not charged again;
//   - when the profile run's batch (max_num_batched_tokens) is above the
//     fused path's token budget, the workspace is made in the warm-up of the
//     first graph profile_cudagraph_memory captures, and that capture's
//     memory — the estimate vLLM subtracts with CUDA graphs on — holds it
//     too: this term.
func fiARNormTerms(in *input.Input) []Term {
	w := in.Release().EagerFIARNormWorkspace(fiARNormQuery(in))
	if w.In == vllm.Absent || in.MaxNumBatchedTokens <= w.MaxTokens || !in.CUDAGraphs || !graphsBudgeted(in) {
		return nil
	}
	return []Term{{termFIARInGraphBudget, w.Bytes / GiB, fmt.Sprintf(
		"FlashInfer all-reduce + RMSNorm workspace, %s; the profile run's %d tokens exceed the fused path's %d, so it is made in the warm-up of the first graph captured while vLLM profiles CUDA-graph memory, and counted in that estimate as well as outside PyTorch (there within the NCCL term)",
		w.Formula, in.MaxNumBatchedTokens, w.MaxTokens)}}
}

// fiARNormQuery is the workspace query for the input's model, layout and GPU.
func fiARNormQuery(in *input.Input) vllm.FIARNormQuery {
	q := vllm.FIARNormQuery{TP: in.Layout.TP, OneNode: !in.Layout.MultiNode(), Hidden: in.Model.HiddenSize}
	if in.Model.MiniMaxM3 != nil {
		q.Model = "minimax_m3"
	}
	if g := in.GPU; g != nil {
		q.NVIDIA, q.SMMajor, q.NVLink = g.Vendor == "nvidia", g.ComputeMajor, g.IntraNodeKind == "nvlink"
	}
	return q
}
