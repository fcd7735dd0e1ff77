package logs

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// mlaReshape is torch's view error on an MLA KV cache: the last dimension
// is the MLA latent width, 576 (kv_lora_rank 512 + rope 64), or 656 (the
// fp8_ds_mla packed layout of the sparse FlashMLA backends). vLLM raises it
// in _reshape_kv_cache_tensors / _init_minimal_kv_cache_for_profiling
// (gpu_model_runner.py) when the attention backend's KV shape does not
// match the buffer the KV cache manager allocated:
//
//	RuntimeError: shape '[2, 84738, 16, 1, 576]' is invalid for input of size 780945408   (vllm#24513)
//	RuntimeError: Worker failed with error 'shape '[512, 64, 576]' is invalid for input of size 21495808'   (vllm#48405)
//	RuntimeError: shape '[32, 64, 576]' is invalid for input of size 1343488   (vllm#48896)
var mlaReshape = regexp.MustCompile(`shape '\[([\d, ]+), (576|656)\]' is invalid for input of size (\d+)`)

// mlaReshapeRules recognise the MLA KV-cache reshape crash (LOG199).
func mlaReshapeRules() []rule {
	return []rule{r(one("is invalid for input of size"), mlaReshape.String(), func(c *ctx, m [][]byte) {
		if c.l.indent {
			return
		}
		c.noted = true
		msg, fix := mlaReshapeDiagnosis(string(m[1]), string(m[2]), string(m[3]))
		c.fail(CodeMLAKVReshape, msg, fix)
	})}
}

// mlaReshapeDiagnosis says what the buffer holds per token against the
// width asked for, and which of the threads' causes that matches.
func mlaReshapeDiagnosis(lead, width, size string) (string, string) {
	prod := int64(1)
	for _, d := range strings.Split(lead, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(d), 10, 64)
		if err != nil || n <= 0 {
			prod = 0
			break
		}
		prod *= n
	}
	total, err := strconv.ParseInt(size, 10, 64)
	msg := fmt.Sprintf("the MLA KV cache cannot be viewed as the attention backend's layout: it asks for [%s, %s] of a buffer of %s elements", lead, width, size)
	if err != nil || prod == 0 || total%prod != 0 {
		return msg, ""
	}
	got := total / prod
	msg += fmt.Sprintf(", which holds %d per row where %s is asked", got, width)
	switch {
	case width == "576" && got == 656:
		return msg + " (656 is the fp8_ds_mla packed layout of an FP8 KV cache for sparse MLA, 576 the unquantized width)",
			"This is vllm#48896/#48405 (GLM-5.2 with an FP8 KV cache on 0.25.0/0.25.1): the reshape took the unquantized width for an fp8_ds_mla cache; PR #48379 (merged after 0.25.1) fixes it. " +
				"Until a release with it: --enforce-eager when it fails in _init_minimal_kv_cache_for_profiling (the CUDA-graph memory profiling; the thread's workaround), or leave --kv-cache-dtype at auto (untested in the threads)."
	default:
		return msg, "The attention backend computed a KV layout the allocated buffer does not have: in vllm#24513 (DeepSeek at DP16 on B200) FLASHMLA forced through VLLM_ATTENTION_BACKEND failed this way and the default backend worked. " +
			"Unset a forced attention backend (VLLM_ATTENTION_BACKEND, --attention-backend), try --kv-cache-dtype auto, or upgrade."
	}
}
