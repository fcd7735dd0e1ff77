package lint

import (
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// versionDirective is `# vlaunch:vllm-version=X`: the vLLM release a file was
// written for. It lives in the suppression comment family so one syntax
// covers every in-file instruction to the linter.
const versionDirective = "vlaunch:vllm-version="

// fileVersion is the release a file's directive names.
type fileVersion struct {
	rel vllm.Release
	// text is the version as written, for messages.
	text string
}

// parseVersionDirectives returns the directive release of each input that
// has one, by file name. A malformed directive (VL007) is ignored; a version
// outside the table resolves to the nearest release with a VL006 note, given
// only when the directive is in force (report is false under --vllm-version).
// In a Markdown document only its code blocks (fenced or indented) are read:
// prose and tables that write about the directive hold none.
func parseVersionDirectives(inputs []Input, report bool) (map[string]fileVersion, diag.Diagnostics) {
	out := map[string]fileVersion{}
	var ds diag.Diagnostics
	for _, in := range inputs {
		var code map[int]bool // a Markdown document's code-block lines; prose holds no directive
		if launch.Markdown(in.Name) {
			code = launch.MarkdownCodeLines(in.Data)
		}
		for i, l := range strings.Split(string(in.Data), "\n") {
			if code != nil && !code[i+1] {
				continue
			}
			hash := strings.Index(l, "#")
			if hash < 0 {
				continue
			}
			body := strings.TrimSpace(l[hash+1:])
			if !strings.HasPrefix(body, versionDirective) {
				continue
			}
			text, _, _ := strings.Cut(strings.TrimPrefix(body, versionDirective), " ")
			at := func(code diag.Code, sev diag.Severity, msg, hint string) {
				ds = append(ds, diag.Diagnostic{Code: code, Severity: sev, File: in.Name, Line: i + 1, Col: hash + 1, Message: msg, Hint: hint})
			}
			if prev, ok := out[in.Name]; ok {
				if prev.text != text {
					at(codeDirective, diag.Warning, "second vllm-version directive ("+text+") contradicts the first ("+prev.text+"); the first is used", "keep one `# vlaunch:vllm-version=X` per file")
				}
				continue
			}
			v, err := vllm.ParseVersion(text)
			if err != nil {
				at(codeDirective, diag.Warning, "malformed vllm-version directive: "+err.Error(), "write `# vlaunch:vllm-version=0.11.0`")
				continue
			}
			rel, warns := vllm.Resolve(v)
			out[in.Name] = fileVersion{rel: rel, text: text}
			for _, w := range warns {
				if report {
					at(codeVersion, diag.Info, w, "")
				}
			}
		}
	}
	return out, ds
}
