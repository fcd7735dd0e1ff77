package validate

import "github.com/vlaunch/vlaunch/vllm"

// checkBackendEnv: a VLLM_ALL2ALL_BACKEND in vllm.env is a backend the
// release accepts, is read at all by the release, and does not contradict
// vllm.all2all_backend. Which of the two runs follows vLLM's precedence
// (vllm.Release.All2AllSelected); resolve applies the same rule, so this is
// what `check` costs and `generate` starts.
func checkBackendEnv(c *checker) {
	val := c.d.VLLM.Env[vllm.All2AllEnv]
	path := p("vllm", "env", vllm.All2AllEnv)
	if val == "" || !c.relOK || !c.ok(path) {
		return
	}
	r := c.rel
	if !r.ReadsAll2AllEnv() {
		c.warnf(CodeBackend, path, "set vllm.all2all_backend instead (vlaunch writes --all2all-backend)",
			"vLLM %s does not read %s (removed by PR #33535): it has no effect", r, vllm.All2AllEnv)
		return
	}
	checkBackendName(c, val, path)
	asked := c.d.VLLM.All2AllBackend
	if asked == "" || asked == "auto" || asked == val {
		return
	}
	if r.All2AllVia() == vllm.ViaFlag {
		c.warnf(CodeBackend, path, "drop one of the two",
			"%s=%s contradicts all2all_backend %s: vLLM %s runs %s, because the --all2all-backend flag vlaunch writes overrides the variable (PR #26732)",
			vllm.All2AllEnv, val, asked, r, asked)
		return
	}
	c.warnf(CodeBackend, path, "drop one of the two",
		"%s=%s contradicts all2all_backend %s: vLLM %s selects the backend only by this variable, and vllm.env wins, so %s runs",
		vllm.All2AllEnv, val, asked, r, val)
}
