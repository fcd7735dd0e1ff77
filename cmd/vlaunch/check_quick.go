package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// quickFlags are check's quick-form flags with the spec field each stands
// for (the order of the flag list in --help).
var quickFlags = []struct{ flag, field string }{
	{"model", "model.name"},
	{"gpu", "hardware.gpu"},
	{"tp", "parallelism.tensor"},
	{"pp", "parallelism.pipeline"},
	{"dp", "parallelism.data"},
	{"ep", "parallelism.expert"},
	{"max-model-len", "workload.max_model_len"},
	{"gpu-memory-utilization", "vllm.gpu_memory_utilization"},
	{"kv-cache-dtype", "vllm.kv_cache_dtype"},
	{"weights", "model.weights"},
	{"vllm-version", "vllm.version"},
	{"concurrency", "workload.concurrency"},
}

// quickFlagsBesideSpec refuses quick-form flags given with a SPEC (exit 2,
// #27): they describe a deployment of their own, and were silently
// ignored next to a spec. The message names each flag given and the spec
// field that says the same.
func quickFlagsBesideSpec(cmd *cobra.Command) error {
	var flags, fields []string
	for _, q := range quickFlags {
		if cmd.Flags().Changed(q.flag) {
			flags = append(flags, "--"+q.flag)
			fields = append(fields, q.field)
		}
	}
	if len(flags) == 0 {
		return nil
	}
	verb := "apply"
	if len(flags) == 1 {
		verb = "applies"
	}
	return usageErr("%s only %s to the quick form (no SPEC); with a spec, set %s in it, or drop the SPEC",
		strings.Join(flags, ", "), verb, strings.Join(fields, ", "))
}
