package generator

import (
	"strings"
	"testing"
)

// kubeletExpand re-implements the kubelet's expansion of command, args and
// env values (k8s.io/kubernetes third_party/forked/golang/expansion.Expand):
// "$$" is "$", "$(NAME)" is the value of NAME when defined and stays as
// written otherwise, an unterminated "$(" and "$x" stay as written.
func kubeletExpand(s string, vars map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch next := s[i+1]; next {
		case '$':
			b.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 {
				b.WriteString("$(")
				i++
				continue
			}
			name := s[i+2 : i+2+end]
			if v, ok := vars[name]; ok {
				b.WriteString(v)
			} else {
				b.WriteString("$(" + name + ")")
			}
			i += 2 + end
		default:
			b.WriteByte('$')
			b.WriteByte(next)
			i++
		}
	}
	return b.String()
}

// kubeVars defines every name a hostile value might reference.
var kubeVars = map[string]string{"HF_TOKEN": "LEAKED", "LWS_LEADER_ADDRESS": "LEADER", "X": "EXPANDED", "": "EMPTY"}

func TestKubeEscape(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain", "plain"},
		{"$(HF_TOKEN)", "$$(HF_TOKEN)"},
		{"a$$b", "a$$$b"},
		{"$$(X)", "$$$$(X)"},
		{`"$LWS_WORKER_INDEX"`, `"$LWS_WORKER_INDEX"`},
		{`"$((LWS_WORKER_INDEX * 8))"`, `"$$((LWS_WORKER_INDEX * 8))"`},
		{"ends with $", "ends with $"},
	} {
		got := kubeEscape(tt.in)
		if got != tt.want {
			t.Errorf("kubeEscape(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if back := kubeletExpand(got, kubeVars); back != tt.in {
			t.Errorf("the kubelet turns %q into %q, want %q", got, back, tt.in)
		}
	}
}

// FuzzKubeEscape: whatever the value, the kubelet hands the container
// exactly what vlaunch meant, even when every referenced name is defined.
func FuzzKubeEscape(f *testing.F) {
	for _, s := range []string{"", "$", "$$", "$(", "$()", "$(X)", "$$(X)", "a$(b$(X))", "$(X", "x$", "$$$(X)$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := kubeletExpand(kubeEscape(s), kubeVars); got != s {
			t.Fatalf("%q escaped as %q arrives as %q", s, kubeEscape(s), got)
		}
	})
}
