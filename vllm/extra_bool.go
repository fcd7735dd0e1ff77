package vllm

import "strings"

// ExtraArgBool is the last setting of boolean flag (written "--name") among
// a spec's extra_args, as vLLM's argparse reads it: "--name" and
// "--name=true" set it, "--no-name" and "--name=false" clear it (True and
// False too, as its str2bool takes them); nil when none of them is given.
// One reading for every switch vlaunch takes from extra_args (async
// scheduling, the hybrid KV cache manager, prefix caching), so that the
// forms accepted do not differ from one rule to the next.
func ExtraArgBool(args []string, flag string) *bool {
	name := strings.TrimPrefix(flag, "--")
	var v *bool
	for _, a := range args {
		on, ok := boolForm(strings.TrimSpace(a), name)
		if ok {
			v = &on
		}
	}
	return v
}

// boolForm reads one argument a as a setting of --name.
func boolForm(a, name string) (on, ok bool) {
	switch a {
	case "--" + name, "--" + name + "=true", "--" + name + "=True":
		return true, true
	case "--no-" + name, "--" + name + "=false", "--" + name + "=False":
		return false, true
	}
	return false, false
}

// PrefixCaching is whether the release's engine caches prompt prefixes
// given the spec's extra_args: on by default in the V1 engine, the last
// --enable-prefix-caching / --no-enable-prefix-caching deciding over it.
func (r Release) PrefixCaching(extraArgs []string) bool {
	if b := ExtraArgBool(extraArgs, "--enable-prefix-caching"); b != nil {
		return *b
	}
	return r.EngineEra().V1Default == Present
}
