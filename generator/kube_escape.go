package generator

import "strings"

// kubeEscape makes s arrive literally through the kubelet's variable
// expansion, which runs over a container's command, args and env values:
// "$(NAME)" is replaced by the variable NAME when the container defines it
// and "$$" becomes "$" (k8s.io/kubernetes third_party/forked/golang/expansion).
// Doubling a "$" that precedes "(" or "$" is the documented escape; a "$"
// before anything else passes through unchanged, so bash expressions such
// as "$LWS_WORKER_INDEX" stay readable.
func kubeEscape(s string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		if s[i] == '$' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '$') {
			b.WriteByte('$')
		}
	}
	return b.String()
}
