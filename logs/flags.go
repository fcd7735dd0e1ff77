package logs

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/vlaunch/vlaunch/vllm"
)

var (
	unrecognized = regexp.MustCompile(`unrecognized arguments: (.+)$`)
	badArgument  = regexp.MustCompile(`error: argument ([^:]+): (.+)$`)
	unexpectedKw = regexp.MustCompile(`unexpected keyword argument '([^']+)'`)
)

// flagFailure explains an argument vLLM refused, with what vlaunch knows
// of the flag's history when the log names the release.
func flagFailure(c *ctx) (string, string) {
	msg := string(c.l.msg)
	var flags []string
	switch {
	case unrecognized.MatchString(msg):
		flags = strings.Fields(unrecognized.FindStringSubmatch(msg)[1])
	case badArgument.MatchString(msg):
		m := badArgument.FindStringSubmatch(msg)
		return clip(fmt.Sprintf("vLLM rejected %s: %s", m[1], m[2]), 300), ""
	case unexpectedKw.MatchString(msg):
		flags = []string{"--" + strings.ReplaceAll(unexpectedKw.FindStringSubmatch(msg)[1], "_", "-")}
	}
	if len(flags) == 0 {
		return "", ""
	}
	if len(flags) > 8 {
		flags = flags[:8]
	}
	var notes []string
	for _, f := range flags {
		notes = append(notes, flagNote(f))
	}
	return clip("vLLM does not accept "+strings.Join(flags, " "), 300), strings.Join(notes, " ")
}

// flagNote says what vlaunch's flag table knows of one refused word.
func flagNote(word string) string {
	if !strings.HasPrefix(word, "-") {
		return fmt.Sprintf("%q is a positional argument the parser did not expect: the model was given twice, or "+
			"the container's entrypoint already runs the server (give the model with --model, drop the extra `serve`).", word)
	}
	hist := vllm.FlagHistory(word)
	if f, ok := vllm.KnownFlagEver(word); ok && len(hist) == 0 {
		hist = vllm.FlagHistory(f.Long())
	}
	if len(hist) == 0 {
		// vLLM's refusal is the fact here; the table only adds that it
		// does not know the flag either. Worded as lint's VL005 is (the
		// same flag in a launch script), which is an info there because
		// the table lacks some real flags.
		return fmt.Sprintf("vLLM refused %s, and it is not in vlaunch's flag table for any release (%s–%s) either: "+
			"a misspelling or another program's flag.", word, vllm.Oldest(), vllm.Newest())
	}
	first, last := hist[0], hist[len(hist)-1]
	span := "from " + first.Since.String()
	if first.Since.Compare(vllm.Oldest().Version) <= 0 {
		span = "in every release vlaunch's table covers (" + vllm.Oldest().String() + " on)"
	}
	if !last.Removed.IsZero() {
		span += ", removed in " + last.Removed.String()
	}
	return fmt.Sprintf("%s is a vLLM flag %s: if this release has it, check the spelling and that the flag and its "+
		"value reach vLLM as separate arguments (\"--host 127.0.0.1\" passed as one word is unrecognized).", last.Long(), span)
}
