package launch

import (
	"bytes"
	"regexp"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// Placeholders are the parts of a published command that the reader is meant
// to replace: `<HEAD_NODE_IP>`, `<model-path>`, `[master ip addr]`, `xxx`,
// `10.0.0.x`, `{{ .Values.image }}`. Read literally, `<X>` is a shell
// redirection that swallows the next word (even `--headless`) and `[a b]`
// becomes stray arguments. The front end keeps each one as a single opaque,
// unresolved value instead: it is blanked out of the text the parsers see
// (same length, so positions stay) and its bytes are marked unresolved when
// a value is built from them.

// CodePlaceholder is the lint code of the note listing a file's placeholders.
const CodePlaceholder = codes.VLPlaceholder

// span is a placeholder's byte range [start, end) in a source.
type span struct {
	start, end int
}

var (
	// angle: <WORD>, <two words>, <ip>:<port>; a letter first, no
	// surrounding blanks, so `cmd <in.txt >out` stays a redirection.
	angle = regexp.MustCompile(`<[A-Za-z0-9_][A-Za-z0-9_.:/@ -]{0,62}[A-Za-z0-9_]>|<[A-Za-z]>`)
	// square: [master ip addr], [your-model]: words in brackets that
	// stand where an argument goes (not `[ x ]` tests or ${A[i]}).
	square = regexp.MustCompile(`\[[A-Za-z][A-Za-z0-9_.:/@ -]{0,62}[A-Za-z0-9_]\]`)
	// redacted: xxx, XXX, ***, x.x.x.x and IPs with x or * parts, as a
	// whole word (group 1; the delimiters around it are consumed).
	redacted = regexp.MustCompile(`(?:^|[\s=:'"/,@])([xX]{3,}|\*{3,}|(?:\d{1,3}|[xX*]{1,3})(?:\.(?:\d{1,3}|[xX*]{1,3})){3})(?:$|[\s:'"/,;@])`)
	// optionX: a lone x or xx as a long option's value (`--dp-rank-start
	// x`, vllm-ascend's DeepSeek-V4-Flash tutorial, beside --dp-address
	// x.x.x.x): no option takes the letter itself (group 1).
	optionX = regexp.MustCompile(`(?:^|\s)--[a-z][a-z0-9_-]*(?:=| +)([xX]{1,2})(?:$|[\s;])`)
	// curly: {nic_name}, {ip of node0}: a name in single braces (Python
	// format fields in published commands); not ${X}, {a,b} or {0..3}.
	curly = regexp.MustCompile(`\{ ?[A-Za-z_](?:[A-Za-z0-9_ .-]{0,62}[A-Za-z0-9_])? ?\}`)
	// elision: `...` or `…` standing for left-out arguments or JSON, alone
	// or in brackets: `--kv-transfer-config '{...}'`.
	elision = regexp.MustCompile(`[{\[<(]\s*(?:\.\.\.|…)\s*[}\]>)]|\.\.\.|…`)
	// template: {{ ... }} of Helm, Jinja and Go templates.
	template = regexp.MustCompile(`\{\{[^{}\n]{0,200}\}\}`)
)

// findPlaceholders returns the placeholder spans of data, in order. In a
// YAML file (yaml set) a bracketed word where a YAML value starts —
// `capabilities: [gpu]`, `- [a]` — is a flow sequence, not a placeholder.
func findPlaceholders(data []byte, yaml bool) []span {
	s := string(data)
	var out []span
	for _, m := range angle.FindAllStringIndex(s, -1) {
		if standsAlone(s, m[0], m[1], "<") && strings.ContainsAny(s[m[0]:m[1]], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
			out = append(out, inBackticks(s, span{m[0], m[1]}))
		}
	}
	for _, m := range curly.FindAllStringIndex(s, -1) {
		if standsAlone(s, m[0], m[1], "{") && !(yaml && yamlFlowStart(s, m[0])) {
			out = append(out, span{m[0], m[1]})
		}
	}
	for _, m := range elision.FindAllStringIndex(s, -1) {
		if standsAlone(s, m[0], m[1], ".") && !(yaml && yamlFlowStart(s, m[0])) {
			out = append(out, span{m[0], m[1]})
		}
	}
	for _, m := range square.FindAllStringIndex(s, -1) {
		if standsAlone(s, m[0], m[1], "[") && !(yaml && yamlFlowStart(s, m[0])) {
			out = append(out, span{m[0], m[1]})
		}
	}
	for _, m := range optionX.FindAllStringSubmatchIndex(s, -1) {
		out = append(out, span{m[2], m[3]})
	}
	for _, m := range redacted.FindAllStringSubmatchIndex(s, -1) {
		if isRedaction(s[m[2]:m[3]]) {
			out = append(out, span{m[2], m[3]})
		}
	}
	for _, m := range template.FindAllStringIndex(s, -1) {
		out = append(out, span{m[0], m[1]})
	}
	return mergeSpans(dropComments(data, out))
}

// dropComments removes spans inside a `#` comment: a comment's `<name>` is
// prose, and blanking it changes nothing the parsers read.
func dropComments(data []byte, spans []span) []span {
	var out []span
	for _, sp := range spans {
		start := sp.start
		for start > 0 && data[start-1] != '\n' {
			start--
		}
		line := string(data[start:sp.start])
		if i := strings.Index(line, "#"); i >= 0 && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			continue
		}
		out = append(out, sp)
	}
	return out
}

// yamlFlowStart reports whether offset i of a YAML text is where a value
// starts — after `key:`, a list dash, `[` or `,` of a flow, or at the start
// of a line — so that a `[` there opens a flow sequence.
func yamlFlowStart(s string, i int) bool {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	before := strings.TrimRight(s[start:i], " \t")
	if strings.TrimSpace(before) == "" {
		return true
	}
	switch before[len(before)-1] {
	case ':', '[', ',':
		return true
	case '-':
		return len(before) == 1 || before[len(before)-2] == ' ' || before[len(before)-2] == '\t'
	}
	return false
}

// inBackticks widens a placeholder written as inline code, `<port>`, to
// the backticks: the shell would run it as a command substitution.
func inBackticks(s string, sp span) span {
	if sp.start > 0 && sp.end < len(s) && s[sp.start-1] == '`' && s[sp.end] == '`' {
		return span{sp.start - 1, sp.end + 1}
	}
	return sp
}

// standsAlone reports a bracketed word that is a whole argument or a part
// of one joined by '=', ':', '/', ',' or quotes, not a redirection target
// glued to a command (`a<b`) nor a here-document (`<<X`).
func standsAlone(s string, i, j int, open string) bool {
	if i > 0 {
		prev := s[i-1]
		if strings.IndexByte(" \t\n=:/,'\"(@`", prev) < 0 || (open == "<" && prev == '<') {
			return false
		}
	}
	if j < len(s) && strings.IndexByte(" \t\n:/,'\";)\\@`", s[j]) < 0 {
		return false
	}
	return true
}

// isRedaction keeps x-words and x-IPs but not version-like numbers.
func isRedaction(t string) bool {
	if strings.Count(t, ".") == 3 {
		return strings.ContainsAny(t, "xX*")
	}
	return true
}

// mergeSpans sorts spans and joins overlapping ones.
func mergeSpans(in []span) []span {
	sort.Slice(in, func(a, b int) bool { return in[a].start < in[b].start })
	var out []span
	for _, sp := range in {
		if n := len(out); n > 0 && sp.start < out[n-1].end {
			if sp.end > out[n-1].end {
				out[n-1].end = sp.end
			}
			continue
		}
		out = append(out, sp)
	}
	return out
}

// blankPlaceholders returns data with each placeholder's bytes replaced by
// '_' so that the parsers read one plain word of the same length. A template
// directive alone on a line (`{{- if .Values.x }}`) becomes blanks, so that
// YAML around it still parses.
func blankPlaceholders(data []byte, spans []span) []byte {
	if len(spans) == 0 {
		return data
	}
	out := append([]byte(nil), data...)
	for _, sp := range spans {
		fill := byte('_')
		if wholeLine(out, sp) {
			fill = ' '
		}
		for i := sp.start; i < sp.end; i++ {
			if out[i] != '\n' {
				out[i] = fill
			}
		}
	}
	return out
}

// wholeLine reports a span that is alone on its line (template directives).
func wholeLine(data []byte, sp span) bool {
	if data[sp.start] != '{' {
		return false
	}
	for i := sp.start - 1; i >= 0 && data[i] != '\n'; i-- {
		if data[i] != ' ' && data[i] != '\t' {
			return false
		}
	}
	for i := sp.end; i < len(data) && data[i] != '\n'; i++ {
		if data[i] != ' ' && data[i] != '\t' && data[i] != '\r' {
			return false
		}
	}
	return true
}

// placeholderAt returns the span holding byte offset off, if any.
func placeholderAt(spans []span, off int) (span, bool) {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].end > off })
	if i < len(spans) && spans[i].start <= off {
		return spans[i], true
	}
	return span{}, false
}

// IsPlaceholder reports an unresolved name that is a placeholder (as listed
// in Value.Unresolved), so rules can tell "fill this in" from "set at run
// time".
func IsPlaceholder(name string) bool {
	return len(findPlaceholders([]byte(name), false)) > 0 && !strings.HasPrefix(name, "$")
}

// notePlaceholders adds the file's one note listing its placeholders that
// reach a launch (fe.placeholdersUsed): one in a usage message (`echo
// "Usage: $0 <role>"`) or in a here-document another program reads
// (`python3 - <<'PY' ... f"{ip}"`) stands for nothing the checks need.
// In a manifest any {{ }} makes the file a Helm template; in a shell
// script only a directive alone on its line does (`{{- if .Values.x }}`):
// a {{ }} inside a command's argument is that program's own template
// (`docker inspect -f '{{.State.Status}}'`, kubectl -o go-template), noted
// only when it reaches a launch (QA41 D4).
func (fe *frontEnd) notePlaceholders(src *source, shell bool) {
	names, at := src.placeholderNames(fe.placeholdersUsed(templateDirectives(src, shell)))
	if len(names) == 0 {
		return
	}
	const shown = 6
	list := names
	if len(list) > shown {
		list = append(append([]string(nil), list[:shown]...), "...")
	}
	msg := "placeholders stand for values to fill in: " + strings.Join(list, ", ") + "; each is read as one unresolved value and checks that need it are skipped"
	hint := "fill them in (or pass the values through variables) to have those checks run"
	for _, n := range names {
		if strings.HasPrefix(n, "{{") {
			hint = "this is a template: lint its rendered output (helm template, envsubst) for the full checks"
			break
		}
	}
	if kserveTemplated(src.data, names) {
		msg = "KServe's LLMInferenceService controller fills in " + strings.Join(list, ", ") + " when it reconciles the resource: it renders the merged spec as a Go template of the LLMInferenceService itself ({{.Name}} is metadata.name); vlaunch reads each as one unresolved value and skips the checks that need it"
		hint = "nothing to render before applying: the controller substitutes these (KServe pkg/controller/v1alpha2/llmisvc/config_merge.go ReplaceVariables)"
	}
	fe.diags = append(fe.diags, diagAt(fe.file, at, CodePlaceholder, msg, hint))
}

// templateDirectives reports the {{ }} placeholders of src that mark it as
// a template (notePlaceholders): all of them in a manifest, in a shell
// script those written alone on a line.
func templateDirectives(src *source, shell bool) func(string) bool {
	if !shell {
		return func(name string) bool { return strings.HasPrefix(name, "{{") }
	}
	alone := map[string]bool{}
	for _, sp := range src.ph {
		if wholeLine(src.orig, sp) {
			alone[string(src.orig[sp.start:sp.end])] = true
		}
	}
	return func(name string) bool { return alone[name] }
}

// diagAt makes an info note of the front end.
func diagAt(file string, at Pos, code diag.Code, msg, hint string) diag.Diagnostic {
	return diag.Diagnostic{Code: code, Severity: diag.Info, File: file, Line: at.Line, Col: at.Col, Message: msg, Hint: hint}
}

// placeholdersUsed is the set of placeholders in the values of the
// invocations found so far (their arguments, environment, host and image),
// and every template directive (directive reports one).
func (fe *frontEnd) placeholdersUsed(directive func(string) bool) func(string) bool {
	used := map[string]bool{}
	var texts []string
	add := func(vs ...Value) {
		for _, v := range vs {
			for _, u := range v.Unresolved {
				used[u] = true
			}
		}
	}
	for _, inv := range fe.invs {
		add(inv.Args...)
		add(inv.OperatorArgs...)
		for _, e := range inv.Env {
			add(e.Value)
		}
		texts = append(texts, inv.Host, inv.Image)
	}
	return func(name string) bool {
		if used[name] || directive(name) {
			return true // a template's directives make the whole file a template
		}
		for _, t := range texts {
			if t != "" && strings.Contains(t, name) {
				return true
			}
		}
		return false
	}
}

// kserveLLMISvc matches a KServe LLMInferenceService (or its Config) document.
var kserveLLMISvc = regexp.MustCompile(`(?m)^kind:[ \t]*["']?LLMInferenceService(Config)?["']?[ \t]*$`)

// kserveTemplated reports placeholders that are all Go-template actions of
// a file declaring a KServe LLMInferenceService: KServe's controller
// executes the merged spec (the resource's own spec included, MergeSpecs
// then ReplaceVariables) as a text/template whose data is the
// LLMInferenceService, with missingkey=error (kserve/kserve@d46d5248
// pkg/controller/v1alpha2/llmisvc/config_merge.go), so `{{.Name}}` is the
// resource's name, filled in by the controller, not by a render step of
// the user's.
func kserveTemplated(data []byte, names []string) bool {
	if !kserveLLMISvc.Match(data) || !bytes.Contains(data, []byte("serving.kserve.io/")) {
		return false
	}
	for _, n := range names {
		if !kserveAction(n) {
			return false
		}
	}
	return true
}

// kserveData are the roots a KServe template action reads: the embedded
// LLMInferenceService's fields, the controller's GlobalConfig, and its one
// function, ChildName. Helm's roots (.Values, .Release, .Chart) are not
// among them: a Helm chart of an LLMInferenceService is rendered first.
var kserveData = []string{".Name", ".Namespace", ".ObjectMeta", ".Spec", ".Labels", ".Annotations", ".UID", ".GlobalConfig", "ChildName"}

// kserveAction reports a `{{ ... }}` action that reads only KServe's data.
func kserveAction(n string) bool {
	if !strings.HasPrefix(n, "{{") || !strings.HasSuffix(n, "}}") {
		return false
	}
	body := strings.Trim(strings.TrimSuffix(strings.TrimPrefix(n, "{{"), "}}"), "- \t")
	for _, root := range kserveData {
		if strings.HasPrefix(body, root) {
			rest := body[len(root):]
			return rest == "" || rest[0] == '.' || rest[0] == ' '
		}
	}
	return false
}
