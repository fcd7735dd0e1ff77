package validate

import (
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkBlockSizeOverride: the spec's block_size for an MLA model that the
// release does not simply run (vllm.Release.MLAUserBlockSize, resolved into
// Engine.UserBlock): up to 0.17.x vLLM replaces it at start-up (cuda.py
// "Forcing kv cache block size to N"), from 0.18.0 it may run another
// attention backend that takes it, and from 0.25.0 the handling was not
// read (nor DeepSeek-V4's kernel sizes: vllm.ArchBlockSize.Unverified).
// Each is an info: the engine starts or may. A size a release read refuses
// is resolve's error at vllm.block_size, not this rule's.
func checkBlockSizeOverride(c *checker) {
	if c.dep == nil || c.dep.Engine.UserBlock == nil {
		return
	}
	u := c.dep.Engine.UserBlock
	path := p("vllm", "block_size")
	switch {
	case u.Unread:
		c.add(diag.Info, CodeBlockSizeOverridden, path, "leave block_size unset to take vLLM's own choice",
			"block_size %d for %s is unverified in this release: %s", u.Given, modelLabel(c), u.Why)
	case u.Action == vllm.UserBlockOverridden:
		c.add(diag.Info, CodeBlockSizeOverridden, path, "leave block_size unset, or set the size vLLM forces",
			"block_size %d is not what runs: %s; sized with %d", u.Given, u.Why, u.Runs)
	case u.Action == vllm.UserBlockSwitched:
		c.add(diag.Info, CodeBlockSizeOverridden, path, "leave block_size unset to keep the default backend",
			"block_size %d changes %s's attention backend: %s", u.Given, modelLabel(c), u.Why)
	}
}
