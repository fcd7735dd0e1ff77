package vllm

// tagRead is one release tag tools/flagspans/gen.py read (tag_flags_table.go):
// the release as the tag names it (without "v") and the tag commit.
type tagRead struct {
	release, commit string
}

// tagPresence says whether the release tag named rel accepts the option
// spelling (tagFlags) or registers the variable (tagEnvs): ok is false when
// the tag was not read.
func tagPresence(masks map[string]string, name, rel string) (present, ok bool) {
	for i, t := range tagReads {
		if t.release == rel {
			m, in := masks[name]
			return in && m[i] == 'X', true
		}
	}
	return false, false
}

// srcTagRead cites release tags read in the kzwrime/vllm snapshot of
// vllm-project/vllm (tools/flagspans/gen.py, tag_flags_table.go): what was
// seen at which tag and in which file.
func srcTagRead(what, path string) string {
	return "read at tag " + what + " (kzwrime/vllm snapshot of vllm-project/vllm): " + path
}
