package report

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/memory"
)

// altSource says where an alternative weights format comes from.
func altSource(a memory.AltWeights) string {
	s := "converted"
	if a.FromCheckpoint {
		s = "checkpoint as shipped"
	}
	if a.Current {
		s += ", this spec"
	}
	return s
}

// stageSuffix names the binding pipeline stage when there are several.
func stageSuffix(r *estimate.Report) string {
	if len(r.Memory.Stages) <= 1 {
		return ""
	}
	return fmt.Sprintf(", pipeline stage %d of %d — the one with the fewest KV blocks", r.Memory.BindingStage, len(r.Memory.Stages))
}

func fitWord(ok bool) string {
	if ok {
		return "fits"
	}
	return "DOES NOT FIT"
}

// capacityVerdict is the Capacity section's verdict: fits, or does not
// fit at once — vLLM queues the excess sessions (EST103, a warning) — or
// does not fit at all (one max_model_len sequence: EST102, vLLM refuses
// to start).
func capacityVerdict(c memory.Capacity) string {
	if c.Fits || !c.OneSequenceFits {
		return fitWord(c.Fits)
	}
	return fmt.Sprintf("DOES NOT FIT at once: %d per rank run at full length, vLLM queues the rest (EST103)", c.MaxSeqsPerRank)
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func truncate(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// wrap breaks text at spaces to lines of at most width runes, each
// prefixed with indent.
func wrap(text string, width int, indent string) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(word)) > width {
			lines = append(lines, indent+line)
			line = word
			continue
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		lines = append(lines, indent+line)
	}
	return strings.Join(lines, "\n")
}
