package replay

import "regexp"

// envAssign is one VAR=value assignment of a quoted launch command.
var envAssign = regexp.MustCompile(`(?:^|[\s;(])(VLLM_[A-Z0-9_]+)=([^\s;,)]+)`)

// envOf reads the vLLM environment variables a row's quoted launch command
// sets (VLLM_MXFP4_USE_MARLIN=1 vllm serve ...): the overrides that change
// which kernels the engine selects.
func envOf(flags string) map[string]string {
	var env map[string]string
	for _, m := range envAssign.FindAllStringSubmatch(flags, -1) {
		if env == nil {
			env = map[string]string{}
		}
		env[m[1]] = m[2]
	}
	return env
}
