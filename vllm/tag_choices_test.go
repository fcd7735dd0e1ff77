package vllm

import (
	"slices"
	"strings"
	"testing"
)

// choiceFlagNames are the canonical names of the flags some table entry
// gives choices to.
func choiceFlagNames() []string {
	var out []string
	for _, n := range flagNames() {
		for _, f := range FlagHistory(n) {
			if len(f.Choices) > 0 {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// TestTagChoicesTableRead: the generated choices table is not empty or
// truncated: choices every release had are there, and a run names tags
// that were read.
func TestTagChoicesTableRead(t *testing.T) {
	if len(tagChoices) < 30 {
		t.Fatalf("%d options with choices", len(tagChoices))
	}
	for f, runs := range tagChoices {
		for _, r := range runs {
			if tagIndex(r.first) < 0 || tagIndex(r.last) < 0 || tagIndex(r.last) < tagIndex(r.first) {
				t.Errorf("%s: run %v names tags not read", f, r)
			}
		}
	}
	for _, c := range []struct{ flag, rel, want string }{
		{"--dtype", "0.5.3", "bfloat16"},
		{"--kv-cache-dtype", "0.11.1", "fp8_ds_mla"},
		{"--scheduling-policy", "0.24.0", "priority"},
	} {
		vals, _, _, ok := tagChoicesAt(c.flag, c.rel)
		if !ok || !slices.Contains(vals, c.want) {
			t.Errorf("%s at %s: %v, want %s among them", c.flag, c.rel, vals, c.want)
		}
	}
	if _, free, _, ok := tagChoicesAt("--block-size", "0.18.0"); !ok || !free {
		t.Errorf("--block-size at 0.18.0: want free (CacheConfig.block_size is an int from 0.18.0)")
	}
}

// TestFlagChoicesAtTags compares every choices fact vlaunch holds with the
// choices argparse enforces at each release tag (tag_choices_table.go): a
// value the tag's parser accepts must be accepted by vlaunch there, and a
// value the tag lacks must be neither accepted by vlaunch there (the tags
// pin the choices up to 0.24.0: no lenient unconfirmed stretch is left) nor
// in the choices vlaunch is certain of (a generator would write it into a
// bundle the release refuses). "None", the
// value an Optional field's choices gain, is not modelled and skipped.
// Where the tag's parser takes any value (free) vlaunch may still restrict
// the value: vLLM may refuse it after parsing, which the reader does not
// follow; those cases are logged. Dynamic choices are not compared.
func TestFlagChoicesAtTags(t *testing.T) {
	rs := tagCheckedReleases(t)
	var compared, free, dynamic int
	for _, n := range choiceFlagNames() {
		for _, r := range rs {
			rel := r.Version.String()
			if p, _ := tagPresence(tagFlags, "--"+n, rel); !p {
				continue // TestFlagSpansAtTags covers presence
			}
			vals, isFree, isDyn, ok := tagChoicesAt("--"+n, rel)
			f, accepted := r.Flag("--" + n)
			cf, certain := r.CertainFlag(n)
			switch {
			case isDyn:
				dynamic++
				continue
			case !ok || isFree:
				free++
				if certain && len(cf.Choices) > 0 {
					t.Logf("--%s at v%s: the tag's parser takes any value, vlaunch limits it to %v (post-parse checks not read)", n, rel, cf.Choices)
				}
				continue
			}
			compared++
			for _, v := range vals {
				if v != "None" && accepted && !f.HasChoice(v) {
					t.Errorf("--%s %s: the v%s tag accepts it, vlaunch refuses it", n, v, rel)
				}
			}
			if accepted { // pinned: vlaunch accepts no more than the tag
				for _, c := range f.Choices {
					if !slices.Contains(vals, c) {
						t.Errorf("--%s %s: the v%s tag lacks it, vlaunch accepts it", n, c, rel)
					}
				}
			}
			if !certain {
				continue
			}
			for _, c := range cf.Choices {
				if !slices.Contains(vals, c) {
					t.Errorf("--%s %s: the v%s tag lacks it, vlaunch is certain of it", n, c, rel)
				}
			}
		}
	}
	t.Logf("%d flags with choices: %d (flag, release) pairs compared, %d free at the tag, %d dynamic", len(choiceFlagNames()), compared, free, dynamic)
}

// TestTagFlag pins the API for flags vlaunch does not model.
func TestTagFlag(t *testing.T) {
	v := mustVersion
	for _, c := range []struct {
		spelling      string
		version       string
		present, read bool
	}{
		{"--hf-token", "0.10.0", true, true},                   // real, not modelled by vlaunch
		{"--enable-force-include-usage", "0.10.0", true, true}, // real (qa findings)
		{"--enable-force-include-usage", "0.5.3", false, true},
		{"--no-such-flag", "0.20.0", false, true},
		{"--tensor_parallel_size=4", "0.20.0", true, true}, // underscores, attached value
		{"-tp", "0.20.0", true, true},
		{"-O3", "0.20.0", true, true},                       // FlexibleArgumentParser's -O
		{"--compilation-config.level", "0.9.0", true, true}, // dotted JSON key
		{"--port", "0.10.1.1", true, true},                  // a hotfix tag that was read
		{"--port", "0.30.0", false, false},                  // no tag read
		{"--port", "0.11.1rc2", false, false},
		{"--port", "0.20.0+cu128", true, true},
	} {
		p, r := TagFlag(c.spelling, v(c.version))
		if p != c.present || r != c.read {
			t.Errorf("TagFlag(%q, %s) = %v, %v; want %v, %v", c.spelling, c.version, p, r, c.present, c.read)
		}
	}
}

// containsFold is slices.Contains, case-insensitive when fold.
func containsFold(list []string, v string, fold bool) bool {
	for _, x := range list {
		if x == v || (fold && strings.EqualFold(x, v)) {
			return true
		}
	}
	return false
}

// TestEnvChoicesAtTags is TestFlagChoicesAtTags for the vLLM variables
// vlaunch gives choices: where the tag's vllm/envs.py registers the
// variable with env_with_choices, every value it lists must be among
// vlaunch's choices, and every value vlaunch lists must be listed there.
// A variable envs.py reads without a list (free) is compared nowhere: its
// users may check it (VLLM_ALL2ALL_BACKEND before 0.11.0), not read here.
func TestEnvChoicesAtTags(t *testing.T) {
	rs := tagCheckedReleases(t)
	compared := 0
	for _, n := range envNames() {
		for _, r := range rs {
			rel := r.Version.String()
			e, ok := r.Env(n)
			if !ok || len(e.Choices) == 0 {
				continue
			}
			vals, fold, _, _, ok := tagEnvChoicesAt(n, rel)
			if !ok || len(vals) == 0 {
				continue
			}
			compared++
			for _, v := range vals {
				if !containsFold(e.Choices, v, fold) {
					t.Errorf("%s=%s: the v%s tag accepts it, vlaunch does not list it", n, v, rel)
				}
			}
			for _, c := range e.Choices { // pinned up to 0.24.0, certain or not
				if !containsFold(vals, c, fold) {
					t.Errorf("%s=%s: the v%s tag lacks it, vlaunch lists it", n, c, rel)
				}
			}
		}
	}
	t.Logf("%d (variable, release) pairs compared", compared)
}

// TestAll2AllBackendsAtTags compares the backend table (All2AllBackends,
// All2AllBackend) with the values the release tag's parser accepts for
// --all2all-backend (0.11.1 on) or envs.py's env_with_choices list for
// VLLM_ALL2ALL_BACKEND (0.11.0): a name the tag accepts must be a backend
// vlaunch takes there, and a backend vlaunch is certain of must be
// accepted. Before 0.11.0 envs.py reads the variable free (its users check
// the name later, not read here).
func TestAll2AllBackendsAtTags(t *testing.T) {
	compared := 0
	for _, r := range tagCheckedReleases(t) {
		rel := r.Version.String()
		var vals []string
		if r.All2AllVia() == ViaFlag {
			vals, _, _, _ = tagChoicesAt("--all2all-backend", rel)
		} else {
			vals, _, _, _, _ = tagEnvChoicesAt("VLLM_ALL2ALL_BACKEND", rel)
		}
		if len(vals) == 0 {
			continue
		}
		compared++
		for _, v := range vals {
			if v == "None" {
				continue
			}
			if _, ok := r.All2AllBackend(v); !ok {
				t.Errorf("all2all backend %s: the v%s tag accepts it, vlaunch refuses it", v, rel)
			}
		}
		for _, b := range backendTable {
			if b.Certain(r.Version) && !slices.Contains(vals, b.Name) {
				t.Errorf("all2all backend %s: the v%s tag lacks it, vlaunch is certain of it", b.Name, rel)
			}
		}
	}
	if compared < 20 {
		t.Errorf("%d releases compared", compared)
	}
}

// TestTagChoices pins the exported reading of the choices table.
func TestTagChoices(t *testing.T) {
	v := mustVersion
	if vals, free, read := TagChoices("--mamba-cache-dtype", v("0.22.0")); !read || free || !slices.Contains(vals, "bfloat16") {
		t.Errorf("--mamba-cache-dtype at 0.22.0: %v %v %v, want choices with bfloat16", vals, free, read)
	}
	if vals, _, _ := TagChoices("--mamba_cache_dtype=float16", v("0.21.0")); slices.Contains(vals, "bfloat16") || !slices.Contains(vals, "float16") {
		t.Errorf("--mamba-cache-dtype at 0.21.0: %v, want float16 and no bfloat16 (added at 0.22.0)", vals)
	}
	if _, free, read := TagChoices("--block-size", v("0.18.0")); !read || !free {
		t.Errorf("--block-size at 0.18.0: free %v read %v, want a free int", free, read)
	}
	if _, _, read := TagChoices("--collect-detailed-traces", v("0.20.0")); read {
		t.Error("--collect-detailed-traces' choices are edited in add_cli_args: not read")
	}
	if _, _, read := TagChoices("--mamba-cache-dtype", v("0.9.0")); read {
		t.Error("--mamba-cache-dtype is absent at 0.9.0")
	}
	if _, _, read := TagChoices("--dtype", v("0.30.0")); read {
		t.Error("0.30.0's tag was not read")
	}
}
