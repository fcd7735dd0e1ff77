package logs

// phase is how far a process got through vLLM's start-up, in order. A
// process's phase only moves forward; the phase of the process that got
// least far is where a hung start-up is stuck.
type phase int

const (
	phNone phase = iota
	phStart
	phConfig
	phRayPlacement
	phHandshake
	phDistributed
	phLoading
	// phPostLoad is the weights' post-processing after the checkpoint is
	// read (model_loader base_loader.py load_model: load_weights, whose
	// default loader logs "Loading weights took", then
	// process_weights_after_loading — the FP8 kernels' set-up, DeepGEMM's
	// JIT of LOG196), before "Model loading took" (phLoaded).
	phPostLoad
	phLoaded
	phProfiling
	phKVCache
	phCUDAGraphs
	phEngineReady
	phServing
)

var phaseNames = [...]string{"", "starting", "engine-config", "ray-placement", "dp-handshake",
	"distributed-init", "loading-weights", "processing-weights", "weights-loaded", "profiling", "kv-cache",
	"cuda-graphs", "engine-ready", "serving"}

// String names the phase as the report prints it.
func (p phase) String() string {
	if p < 0 || int(p) >= len(phaseNames) {
		return ""
	}
	return phaseNames[p]
}

// phaseDoing says what a process in the phase is doing, for hang messages.
var phaseDoing = map[phase]string{
	phStart:        "parsing its arguments",
	phConfig:       "setting up the engine",
	phRayPlacement: "waiting for Ray to place its workers (placement group)",
	phHandshake:    "waiting for the DP engines / front-end handshake",
	phDistributed:  "setting up torch.distributed / NCCL process groups",
	phLoading:      "loading the weights",
	phPostLoad:     "post-processing the weights after loading them (process_weights_after_loading)",
	phLoaded:       "after loading the weights",
	phProfiling:    "compiling / profiling memory",
	phKVCache:      "allocating the KV cache",
	phCUDAGraphs:   "capturing CUDA graphs",
	phEngineReady:  "with the engine initialised, before the API server was up",
	phServing:      "serving",
}

// hangKind is the failure kind a start-up stuck in the phase most likely
// has: a handshake that never completes is a DP problem, a process-group
// set-up that never returns an NCCL/network one.
func hangKind(p phase) string {
	switch p {
	case phRayPlacement:
		return KindRayPlacement
	case phHandshake:
		return KindDPHandshake
	case phDistributed:
		return KindNCCL
	case phCUDAGraphs:
		return KindCUDAGraph
	}
	return KindOther
}
