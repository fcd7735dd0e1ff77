package vllm

// All2AllEnv is the variable that selected the all-to-all backend before
// --all2all-backend (see envTable for its span).
const All2AllEnv = "VLLM_ALL2ALL_BACKEND"

// ReadsAll2AllEnv reports whether the release reads VLLM_ALL2ALL_BACKEND
// (0.9.0 until its removal by PR #33535; the span lives in envTable).
func (r Release) ReadsAll2AllEnv() bool {
	_, ok := r.Env(All2AllEnv)
	return ok
}

// All2AllSelected is the backend release r runs when `vllm serve` gets
// flag as --all2all-backend ("" when not passed) and env as
// VLLM_ALL2ALL_BACKEND ("" when unset), and what decided it (ViaFlag,
// ViaEnv, or 0 for the release default):
//
//   - before 0.11.1 there is no flag: the variable, else the default;
//   - from 0.11.1 the flag wins over the variable, which still works on its
//     own with a deprecation warning (PR #26732: "The env var will still
//     work by itself, but it will be overriden by the argument if both are
//     set");
//   - once the variable is removed (PR #33535) only the flag counts.
//
// Whether the release accepts the name is a separate question
// (All2AllBackend).
func (r Release) All2AllSelected(flag, env string) (string, Mechanism) {
	if _, hasFlag := r.Flag("all2all-backend"); hasFlag && flag != "" {
		return flag, ViaFlag
	}
	if env != "" && r.ReadsAll2AllEnv() {
		return env, ViaEnv
	}
	return r.Defaults().All2AllBackend, 0
}
