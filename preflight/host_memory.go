package preflight

import (
	"context"
	"fmt"
)

// workerHostBytes is what one vLLM process holds in host memory before any
// weight: the Python interpreter, torch with its CUDA libraries and the
// host side of a CUDA context. An assumption (process listings of vLLM
// workers show a few GiB each; not a vLLM-stated figure), which is why
// host.memory warns rather than fails.
const workerHostBytes = 3 << 30

// checkHostMemory asks whether the host can run this node's vLLM processes
// while they load. vLLM does not hold the weights in host memory: its
// default loader opens each safetensors file with safe_open (a memory map)
// and yields one tensor at a time, which the layer's weight_loader copies
// (or slices) into the GPU parameter (vllm/model_executor/model_loader/
// weight_utils.py, safetensors_weights_iterator, read at commit 0035bdf2).
// The mapped pages are page cache, reclaimable and shared by the node's
// workers, so the node's share of the weights need not fit in RAM; what
// must fit is every process plus the tensor each has copied out of the map.
// A short host slows loading (pages re-read from disk) before it breaks it.
func checkHostMemory(_ context.Context, e *env) Result {
	need, why := e.hostMemoryNeed()
	want := fmt.Sprintf("≥ %s available (%s)", gib(need), why)
	mi, err := e.readTrim("/proc/meminfo")
	if err != nil {
		return unchecked("cannot read /proc/meminfo: "+err.Error(), want, "run `free -g` on the host itself")
	}
	total, avail := meminfoBytes(mi, "MemTotal"), meminfoBytes(mi, "MemAvailable")
	found := fmt.Sprintf("%s available of %s", gib(avail), gib(total))
	weights, source := e.nodeWeightBytes()
	stream := fmt.Sprintf("; this node's %s of weights (%s) stream through the page cache and need not fit", gib(weights), source)
	switch memoryShort(total, avail, need) {
	case "total":
		return warn(found, want+stream, "vLLM's processes may be OOM-killed while loading: use a host with more RAM, or fewer GPUs per node")
	case "available":
		return warn(found, want+stream, "other processes hold the memory vLLM's workers need while loading: stop them (page cache is reclaimable and does not count)")
	}
	return pass(found, want+stream)
}

// memoryShort says which figure falls short of need: "total" (the host is
// too small), "available" (other users hold it) or "" (enough). The node's
// weights are not an argument: they never need to fit.
func memoryShort(total, avail, need float64) string {
	switch {
	case total < need:
		return "total"
	case avail < need:
		return "available"
	}
	return ""
}

// hostMemoryNeed is one process per GPU of the node (vLLM's executors start
// a worker per GPU) plus the API server and engine core, each at
// workerHostBytes, and per worker the largest tensor it copies out of the
// map: the embedding (or LM head), vocabulary × hidden in the checkpoint's
// wide dtype, the largest single tensor of the catalog's checkpoints.
func (e *env) hostMemoryNeed() (float64, string) {
	m := e.checkpointModel()
	tensor := float64(m.VocabSize) * float64(m.HiddenSize) * dtypeBytes(m.TorchDType)
	gpus := e.node.GPUs
	fronts, front := 1, "the front end"
	if n := e.sharedInstances(); n > 1 {
		fronts, front = n, fmt.Sprintf("%d front ends (the instances of both P/D pools on the node)", n)
	}
	if sh := e.share(); e.opts.Pool != "" && sh.Shared {
		// --pool: the other pool, if running, already holds its memory.
		gpus = sh.GPUs
		if fronts > 1 {
			front = fmt.Sprintf("%d front ends (the %s pool's instances on the node)", fronts, e.opts.Pool)
		}
	}
	need := float64(gpus)*(workerHostBytes+tensor) + float64(fronts)*workerHostBytes
	return need, fmt.Sprintf("%d GPU workers + %s at ≈%s each, and per worker the largest tensor copied out of the memory-mapped checkpoint, %s",
		gpus, front, gib(workerHostBytes), gib(tensor))
}

// sharedInstances is how many instances of both P/D pools start on a node
// they share (Options.Roles: each pool's sites on it, Deployment.Place),
// only Options.Pool's when one pool is checked; 0 on any other node.
func (e *env) sharedInstances() int {
	if len(e.opts.Roles) < 2 {
		return 0
	}
	n := 0
	for _, r := range e.opts.Roles {
		if e.opts.Pool != "" && r.Name != e.opts.Pool {
			continue // --pool: the other pool's workers, if running, are out of MemAvailable already
		}
		pe, err := e.forRole(r)
		if err != nil {
			continue
		}
		pl, err := pe.r.Place()
		if err != nil {
			continue
		}
		for _, s := range pl.Sites {
			if s.Node == pe.idx {
				n++
			}
		}
	}
	return n
}

// nodeWeightBytes is what this node's GPUs load: the estimator's figure,
// else the checkpoint split by GPU count (a lower bound: with DP attention
// every GPU also reads the replicated layers).
func (e *env) nodeWeightBytes() (float64, string) {
	if h := e.opts.Expect.NodeWeightBytes; h != nil {
		if b, ok := h(e.node.Name); ok {
			return b, "estimate"
		}
	}
	total, _ := e.checkpointBytes()
	if n := e.sharedInstances(); n > 0 {
		// Each instance of either pool on the node loads a whole copy.
		who := "both pools"
		if e.opts.Pool != "" {
			who = "the " + e.opts.Pool + " pool"
		}
		return total * float64(n), fmt.Sprintf("checkpoint × the %d instances of %s on the node", n, who)
	}
	if all := e.d.TotalGPUs(); all > 0 {
		return total * float64(e.node.GPUs) / float64(all), "checkpoint × this node's GPU share"
	}
	return total, "whole checkpoint"
}
