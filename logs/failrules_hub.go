package logs

import (
	"fmt"
)

// hubProbeRules recognise the ERROR lines vLLM logs while it probes the
// Hugging Face Hub and then catches itself.
//
// "Error retrieving safetensors: 'gpt-oss-120b' is not a safetensors repo.
// …, retrying 1 of 2" is with_retry's logger.error (vllm/transformers_utils/
// config.py lines 128/130 at v0.10.1.1, the [config.py:128]/[config.py:130]
// of dennislee22/vLLM-benchmarking's 0.10.1.1 logs; repo_utils.py from
// v0.19 on) inside try_get_safetensors_metadata, which catches the
// exception and returns None (config.py:847–862 at v0.10.1.1): the model
// config then goes on without the Hub's safetensors metadata. The message
// is in v0.9.1, v0.9.2, v0.10.0, v0.10.1.1 and v0.19.0 (checked in the
// release tags' trees); v0.9.0 and earlier do not log it.
func hubProbeRules() []rule {
	safetensors := r(one("Error retrieving safetensors"), `Error retrieving safetensors: (.*?)(?:, retrying (\d+) of (\d+))?\s*$`, func(c *ctx, m [][]byte) {
		if c.l.indent {
			return
		}
		msg := fmt.Sprintf("vLLM could not read the checkpoint's safetensors metadata from the Hugging Face Hub (%s); "+
			"logged at error level, but vLLM catches it (try_get_safetensors_metadata returns None, vLLM 0.9.1 and later) and the start-up continues", clip(string(m[1]), 200))
		f := c.failSev(CodeErrorLine, "info", msg, "")
		if f != nil {
			f.fix = hubProbeFix
		}
	})
	return []rule{safetensors}
}

const hubProbeFix = "Nothing to fix when the server starts: a local path or a repository without safetensors files has no Hub metadata. " +
	"If the start-up fails, the error after this line is the cause."
