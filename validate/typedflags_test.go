package validate

import (
	"testing"

	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestTypedFlagsKnown: every flag a typed field declares (spec.TypedFlags)
// is one vLLM has had, so extraArgProblems can match it by its canonical
// name, and the table holds the settings qa44b F2 found passing through.
func TestTypedFlagsKnown(t *testing.T) {
	seen := map[string]string{}
	for _, tf := range spec.TypedFlags() {
		for _, f := range tf.Flags {
			if _, ok := vllm.KnownFlagEver(f); !ok {
				t.Errorf("%s declares --%s, which is in no release's flag table", tf.Path, f)
			}
			seen[f] = tf.Path
		}
	}
	for flag, path := range map[string]string{"max-num-seqs": "vllm.max_num_seqs", "gpu-memory-utilization": "vllm.gpu_memory_utilization",
		"kv-cache-dtype": "vllm.kv_cache_dtype", "max-model-len": "workload.max_model_len", "tensor-parallel-size": "parallelism.tensor",
		"speculative-config": "vllm.speculative", "enable-expert-parallel": "parallelism.expert"} {
		if seen[flag] != path {
			t.Errorf("--%s: typed field %q, want %q", flag, seen[flag], path)
		}
	}
}
