package spec

import "testing"

// TestPoolVLLMWrites: a field is written when its pointer is set (even to
// false or 0), its list is not empty, its map holds the key; paths go
// through pointers to structs by yaml name; unknown names are not written.
func TestPoolVLLMWrites(t *testing.T) {
	no, zero, accept := false, 0, 1.5
	o := PoolVLLM{
		EnforceEager: &no, MaxNumSeqs: &zero, ExtraArgs: []string{},
		Env:         map[string]string{"VLLM_ALL2ALL_BACKEND": ""},
		Speculative: &Speculative{Method: "mtp", NumSpeculativeTokens: 1},
	}
	for key, want := range map[string]bool{
		"enforce_eager":                      true,
		"max_num_seqs":                       true,
		"max_num_batched_tokens":             false,
		"extra_args":                         false,
		"env":                                true,
		"env.VLLM_ALL2ALL_BACKEND":           true,
		"env.VLLM_OTHER":                     false,
		"speculative":                        true,
		"speculative.method":                 true,
		"speculative.mean_acceptance_length": false,
		"speculative.draft_model.path":       false,
		"nope":                               false,
		"max_num_seqs.more":                  false,
	} {
		if got := o.Writes(key); got != want {
			t.Errorf("Writes(%q) = %v, want %v", key, got, want)
		}
	}
	o.Speculative.MeanAcceptanceLength = &accept
	if !o.Writes("speculative.mean_acceptance_length") {
		t.Error("a set mean_acceptance_length is not written")
	}
	if (PoolVLLM{}).Writes("enforce_eager") {
		t.Error("an empty block writes enforce_eager")
	}
}
