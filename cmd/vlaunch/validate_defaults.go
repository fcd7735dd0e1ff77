package main

import (
	"fmt"
	"io"

	"github.com/vlaunch/vlaunch/resolve"
	"gopkg.in/yaml.v3"
)

// printDefaults writes the spec with vlaunch's defaults applied, followed by
// the defaults vLLM itself picks for the requested version (as comments,
// because they are vLLM's, not the spec's).
func printDefaults(w io.Writer, r *resolve.Deployment) error {
	d := r.Spec
	fmt.Fprintf(w, "# %s with defaults applied\n", d.File)
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(d); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	printVersionDefaults(w, r)
	return nil
}

// printVersionDefaults uses the release and GPU validate resolved (the
// newest release when vllm.version is not set).
func printVersionDefaults(w io.Writer, res *resolve.Deployment) {
	d, r := res.Spec, res.Release
	if res.Version.Value == "" {
		fmt.Fprintln(w, "# vLLM's own defaults: resolved at check/generate time once vllm.version is valid")
		return
	}
	def := r.Defaults()
	fmt.Fprintf(w, "# vLLM %s defaults for settings the spec leaves out:\n", r)
	if d.VLLM.GPUMemoryUtilization == nil {
		fmt.Fprintf(w, "#   gpu_memory_utilization: %g\n", def.GPUMemoryUtilization)
	}
	if gpu := res.GPU; gpu != nil && (d.VLLM.MaxNumSeqs == nil || d.VLLM.MaxNumBatchedTokens == nil) {
		seqs, tokens := r.BatchDefaults(gpu.Name, gpu.MemoryGiB(), true)
		fmt.Fprintf(w, "#   max_num_seqs: %d  (per data-parallel rank)\n#   max_num_batched_tokens: %d\n", seqs, tokens)
	}
	if d.VLLM.APIServerCount == nil {
		if def.APIServerCountAuto {
			fmt.Fprintf(w, "#   api_server_count: data-parallel size (%d)\n", d.Parallelism.Data)
		} else {
			fmt.Fprintf(w, "#   api_server_count: %d\n", def.APIServerCount)
		}
	}
	if d.VLLM.All2AllBackend == "auto" {
		fmt.Fprintf(w, "#   all2all_backend: auto = vlaunch picks per layout at generate time (vLLM's own default: %s)\n", def.All2AllBackend)
	}
}
