package generator

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shq quotes one word for bash. Words that need no quoting stay bare so the
// scripts remain readable; anything else is quoted by mvdan.cc/sh, which
// refuses what bash cannot represent (e.g. NUL bytes).
func shq(s string) (string, error) {
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return "", fmt.Errorf("cannot quote %q for bash: %w", s, err)
	}
	return q, nil
}

func word(a Arg) (string, error) {
	if a.Raw {
		return a.Text, nil
	}
	return shq(a.Text)
}

// shellWords renders a command with one flag (and its values) per line,
// joined by backslash-newline and indent.
func shellWords(args []Arg, indent string) (string, error) {
	var lines []string
	var cur []string
	for i, a := range args {
		w, err := word(a)
		if err != nil {
			return "", err
		}
		if i > 0 && !a.Raw && strings.HasPrefix(a.Text, "-") && !isNumber(a.Text) && len(cur) > 0 {
			lines = append(lines, strings.Join(cur, " "))
			cur = nil
		}
		cur = append(cur, w)
	}
	if len(cur) > 0 {
		lines = append(lines, strings.Join(cur, " "))
	}
	return strings.Join(lines, " \\\n"+indent), nil
}

// rayWait is the loop that waits for a Ray cluster to report gpus GPUs.
func rayWait(gpus int) string {
	return fmt.Sprintf(`ray_ok=0
for _ in $(seq 1 120); do
  if ray status 2>/dev/null | grep -qE "/%d([.]0)? GPU"; then ray_ok=1; break; fi
  sleep 5
done
if [ "$ray_ok" != 1 ]; then
  echo "Ray cluster did not reach %d GPUs within 10 minutes; start every worker node" >&2
  exit 1
fi`, gpus, gpus)
}

// leaderResolveTries x leaderResolveSleepS is how long an LWS worker waits
// for the leader's DNS record: LWS's headless service publishes not-ready
// addresses (pkg/utils/controller CreateHeadlessServiceIfNotExists), so
// the record exists as soon as the leader pod has an IP; ten minutes covers
// a slow scheduling of the leader without hanging forever.
const (
	leaderResolveTries  = 120
	leaderResolveSleepS = 5
)

// leaderResolve sets leader_ip to the IPv4 address of LWS_LEADER_ADDRESS,
// waiting until the name resolves; getent is in every glibc image.
func leaderResolve() string {
	return fmt.Sprintf(`# vLLM binds and compares the DP/master address as given, and ZMQ does not
# resolve names when binding: turn the leader's DNS name into its IP first.
leader_ip=""
for _ in $(seq 1 %d); do
  out=$(getent ahostsv4 "$LWS_LEADER_ADDRESS" || true)
  leader_ip=${out%%%% *}
  if [ -n "$leader_ip" ]; then break; fi
  sleep %d
done
if [ -z "$leader_ip" ]; then
  echo "cannot resolve the LWS leader $LWS_LEADER_ADDRESS after %d s" >&2
  exit 1
fi`, leaderResolveTries, leaderResolveSleepS, leaderResolveTries*leaderResolveSleepS)
}

// script renders steps as a bash script body (no shebang): every step but
// the last runs normally, the last is exec'd.
func script(steps []Step) (string, error) {
	var b strings.Builder
	for i, s := range steps {
		if s.ResolveLeader {
			b.WriteString(leaderResolve() + "\n")
		}
		if s.WaitForRayGPUs > 0 {
			b.WriteString(rayWait(s.WaitForRayGPUs) + "\n")
		}
		if s.Comment != "" {
			b.WriteString("# " + oneLine(s.Comment) + "\n")
		}
		cmd, err := shellWords(s.Args, "  ")
		if err != nil {
			return "", err
		}
		if i == len(steps)-1 {
			b.WriteString("exec ")
		}
		b.WriteString(cmd + "\n")
	}
	return b.String(), nil
}

// oneLine keeps comments on one line whatever the input.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}
